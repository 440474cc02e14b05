import { describe, expect, it } from 'vitest';
import { fitScale, makeTransform, panBy, turned, zoomAt } from '../../renderer/view-transform.ts';

const bounds = { x0: 0, x1: 150, y0: 0, y1: 150 };
const vp = { width: 800, height: 600 };

describe('view transform', () => {
  it('fits the floor and puts north up (larger z is higher on screen)', () => {
    const t = makeTransform({ cx: 75, cz: 75, zoom: 1 }, bounds, vp);
    expect(t.scale).toBeCloseTo(fitScale(bounds, vp));
    expect(t.toScreen(75, 75)).toEqual({ sx: 400, sy: 300 });
    expect(t.toScreen(75, 90).sy).toBeLessThan(300);
    expect(t.toScreen(90, 75).sx).toBeGreaterThan(400);
  });

  it('maps screen back to world', () => {
    const t = makeTransform({ cx: 40, cz: -20, zoom: 2.5 }, bounds, vp);
    const s = t.toScreen(123.4, 56.7);
    const w = t.toWorld(s.sx, s.sy);
    expect(w.x).toBeCloseTo(123.4);
    expect(w.z).toBeCloseTo(56.7);
  });

  it('zooms around the pointer, keeping the world point under it', () => {
    const v = { cx: 75, cz: 75, zoom: 1 };
    const before = makeTransform(v, bounds, vp).toWorld(620, 150);
    const next = zoomAt(v, bounds, vp, 2, 620, 150);
    expect(next.zoom).toBe(2);
    const after = makeTransform(next, bounds, vp).toWorld(620, 150);
    expect(after.x).toBeCloseTo(before.x);
    expect(after.z).toBeCloseTo(before.z);
  });

  it('clamps zoom to its range', () => {
    expect(zoomAt({ cx: 0, cz: 0, zoom: 10 }, bounds, vp, 5, 0, 0).zoom).toBe(12);
    expect(zoomAt({ cx: 0, cz: 0, zoom: 0.6 }, bounds, vp, 0.1, 0, 0).zoom).toBe(0.5);
  });

  it('pans with the drag (dragging right looks west, down looks north) and stays near the floor', () => {
    const v = { cx: 75, cz: 75, zoom: 1 };
    const moved = panBy(v, bounds, vp, 100, 0);
    expect(moved.cx).toBeLessThan(75);
    expect(moved.cz).toBe(75);
    const far = panBy(v, bounds, vp, -1e6, 1e6);
    expect(far.cx).toBe(165);
    expect(far.cz).toBe(165);
    expect(panBy(v, bounds, vp, 0, -50).cz).toBeLessThan(75);
  });

  describe('a wide floor in a tall box (a phone upright)', () => {
    const wide = { x0: 0, x1: 300, y0: 0, y1: 120 };
    const phone = { width: 390, height: 560 };

    it('is turned a quarter clockwise: north to the right, east down, and fills more of the box', () => {
      expect(turned(wide, phone)).toBe(true);
      expect(turned(wide, vp)).toBe(false);
      expect(turned(bounds, phone)).toBe(false); // a square floor stays as it is
      const t = makeTransform({ cx: 150, cz: 60, zoom: 1 }, wide, phone);
      expect(t.turn).toBe(90);
      expect(t.toScreen(150, 60)).toEqual({ sx: 195, sy: 280 });
      expect(t.toScreen(150, 80).sx).toBeGreaterThan(195);
      expect(t.toScreen(170, 60).sy).toBeGreaterThan(280);
      const flat = Math.min(phone.width / 300, phone.height / 120);
      expect(t.scale).toBeGreaterThan(1.3 * flat);
      expect(t.scale).toBeCloseTo(fitScale(wide, phone));
    });

    it('maps back, zooms around the pointer and pans with the drag', () => {
      const v = { cx: 100, cz: 50, zoom: 1.7 };
      const t = makeTransform(v, wide, phone);
      const w = t.toWorld(t.toScreen(12.5, 99).sx, t.toScreen(12.5, 99).sy);
      expect(w.x).toBeCloseTo(12.5);
      expect(w.z).toBeCloseTo(99);
      const before = t.toWorld(300, 100);
      const after = makeTransform(zoomAt(v, wide, phone, 2, 300, 100), wide, phone).toWorld(300, 100);
      expect(after.x).toBeCloseTo(before.x);
      expect(after.z).toBeCloseTo(before.z);
      // The world point under the finger moves with it.
      const under = t.toWorld(200, 200);
      const moved = makeTransform(panBy(v, wide, phone, 30, -20), wide, phone).toScreen(under.x, under.z);
      expect(moved.sx).toBeCloseTo(230);
      expect(moved.sy).toBeCloseTo(180);
    });
  });
});
