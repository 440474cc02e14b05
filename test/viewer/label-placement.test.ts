import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { overlaps } from '../../renderer/box.ts';
import type { Box } from '../../renderer/box.ts';
import { placeLabels, spotsAround } from '../../renderer/label-placement.ts';
import type { LabelRequest } from '../../renderer/label-placement.ts';

// Text is measured as 7 px per character, a line is 10 px high; boxes add 2 px on each side.
const measure = (t: string): number => t.length * 7;
const screen: Box = { x0: 0, y0: 0, x1: 400, y1: 300 };
const place = (requests: LabelRequest[], symbols: Box[] = []) =>
  placeLabels(requests, symbols, screen, measure, 10);
const at = (x: number, y: number, texts: string[], extra: Partial<LabelRequest> = {}): LabelRequest => ({
  texts,
  x,
  y,
  spots: spotsAround(20, 20),
  ...extra,
});

describe('label placement', () => {
  it('puts a label on its point when nothing is there', () => {
    const [p] = place([at(100, 100, ['SCP-079'])]);
    expect(p).toMatchObject({ index: 0, text: 'SCP-079', x: 100, y: 100 });
    expect(p?.box).toEqual({ x0: 100 - 26.5, y0: 93, x1: 100 + 26.5, y1: 107 });
  });

  it('moves a label off a symbol on its point (a tesla gate on SCP-096)', () => {
    const tesla = { x0: 90, y0: 90, x1: 110, y1: 110 };
    const [p] = place([at(100, 100, ['SCP-096'])], [tesla]);
    expect(p).toBeDefined();
    expect(overlaps(p!.box, tesla)).toBe(false);
    // The nearest free spot: straight above or below, not a corner.
    expect(p!.x).toBe(100);
  });

  it('keeps the second of two neighbours clear of the first', () => {
    const [a, b] = place([at(100, 100, ['Chkp A']), at(110, 100, ['Elev A'])]);
    expect(a && b).toBeTruthy();
    expect(overlaps(a!.box, b!.box)).toBe(false);
  });

  it('uses the full name where it fits and the short one where it does not', () => {
    const wide = place([at(200, 100, ['HCZ Armory', 'Armory'], { maxWidth: 100 })]);
    expect(wide[0]?.text).toBe('HCZ Armory');
    const narrow = place([at(200, 100, ['HCZ Armory', 'Armory'], { maxWidth: 50 })]);
    expect(narrow[0]?.text).toBe('Armory');
    // Where the full name collides everywhere, the short one still finds room.
    const walls = [
      { x0: 0, y0: 0, x1: 400, y1: 80 },
      { x0: 0, y0: 120, x1: 400, y1: 300 },
      { x0: 0, y0: 0, x1: 170, y1: 300 },
      { x0: 230, y0: 0, x1: 400, y1: 300 },
    ];
    expect(place([at(200, 100, ['HCZ Armory', 'Armory'])], walls)[0]?.text).toBe('Armory');
  });

  it('leaves out a label that fits nowhere, and one that would leave the screen', () => {
    const everywhere = [{ x0: 0, y0: 0, x1: 400, y1: 300 }];
    expect(place([at(100, 100, ['Waterfall'])], everywhere)).toEqual([]);
    expect(place([at(2, 150, ['Waterfall'], { spots: [{ dx: 0, dy: 0, ax: 0.5, ay: 0.5 }] })])).toEqual([]);
  });

  it('places an elevator caption beside its icon, flipping sides at the screen edge', () => {
    const beside = [
      { dx: 10, dy: 0, ax: 0, ay: 0.5 },
      { dx: -10, dy: 0, ax: 1, ay: 0.5 },
    ];
    const [right] = place([at(100, 100, ['to LCZ'], { spots: beside })]);
    expect(right?.box.x0).toBe(110);
    const [left] = place([at(380, 100, ['to LCZ'], { spots: beside })]);
    expect(left?.box.x1).toBe(370);
  });

  it('never overlaps a symbol or another label, and stays on screen (any layout)', () => {
    const box = fc
      .record({ x: fc.integer({ min: 0, max: 390 }), y: fc.integer({ min: 0, max: 290 }) })
      .chain(({ x, y }) =>
        fc.record({
          x0: fc.constant(x),
          y0: fc.constant(y),
          x1: fc.integer({ min: x + 1, max: x + 30 }),
          y1: fc.integer({ min: y + 1, max: y + 30 }),
        }),
      );
    const request = fc.record({
      x: fc.integer({ min: 0, max: 400 }),
      y: fc.integer({ min: 0, max: 300 }),
      texts: fc.array(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 2 }),
      step: fc.integer({ min: 0, max: 40 }),
    });
    fc.assert(
      fc.property(fc.array(request, { maxLength: 40 }), fc.array(box, { maxLength: 40 }), (reqs, symbols) => {
        const placed = place(
          reqs.map((r) => at(r.x, r.y, r.texts, { spots: spotsAround(r.step, r.step) })),
          symbols,
        );
        for (const [i, p] of placed.entries()) {
          expect(reqs[p.index]?.texts).toContain(p.text);
          expect(p.box.x0 >= 0 && p.box.y0 >= 0 && p.box.x1 <= 400 && p.box.y1 <= 300).toBe(true);
          expect(symbols.some((s) => overlaps(s, p.box))).toBe(false);
          expect(placed.slice(i + 1).some((q) => overlaps(q.box, p.box))).toBe(false);
        }
        // One placement per request at most.
        expect(new Set(placed.map((p) => p.index)).size).toBe(placed.length);
      }),
    );
  });
});
