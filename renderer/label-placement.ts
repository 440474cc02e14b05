// Collision-free placement of map labels, in screen pixels. Pure: the caller measures text and
// lists what is already drawn (symbols); each label then tries its texts (longest first) at its
// spots in order and takes the first box that stays on screen and touches neither a symbol nor a
// label placed before it. A label that fits nowhere is left out; the room's hover info still
// names it in full.

import { inside, overlaps } from './box.ts';
import type { Box } from './box.ts';

/**
 * Where a label may go: the point (anchor + dx, dy) is at fraction (ax, ay) of the label's box,
 * so ax 0.5 centres it on the point, ax 0 puts its left edge there.
 */
export interface Spot {
  dx: number;
  dy: number;
  ax: number;
  ay: number;
}

export interface LabelRequest {
  /** Texts to try, preferred first (full name, then a shorter one). */
  texts: readonly string[];
  x: number;
  y: number;
  spots: readonly Spot[];
  /** A text wider than this is skipped unless it is the last one (full names only where they fit). */
  maxWidth?: number;
}

export interface PlacedLabel {
  /** Index of the request. */
  index: number;
  text: string;
  /** Centre of the text. */
  x: number;
  y: number;
  box: Box;
}

/** Spots around a point, nearest first: on it, then above, below, beside and diagonal, `step` apart. */
export function spotsAround(stepX: number, stepY: number, rings = 2): Spot[] {
  const out: Spot[] = [{ dx: 0, dy: 0, ax: 0.5, ay: 0.5 }];
  for (let r = 1; r <= rings; r++) {
    const sx = (stepX * r) / rings;
    const sy = (stepY * r) / rings;
    for (const [dx, dy] of [
      [0, -sy],
      [0, sy],
      [sx, 0],
      [-sx, 0],
      [sx, -sy],
      [-sx, -sy],
      [sx, sy],
      [-sx, sy],
    ] as const) {
      out.push({ dx, dy, ax: 0.5, ay: 0.5 });
    }
  }
  return out;
}

/**
 * Places labels in request order (callers sort by importance). `height` is the box height of one
 * line and `pad` the room kept around the text (its halo).
 */
export function placeLabels(
  requests: readonly LabelRequest[],
  symbols: readonly Box[],
  screen: Box,
  measure: (text: string) => number,
  height: number,
  pad = 2,
): PlacedLabel[] {
  const placed: PlacedLabel[] = [];
  const taken = (b: Box): boolean =>
    symbols.some((s) => overlaps(s, b)) || placed.some((p) => overlaps(p.box, b));
  requests.forEach((req, index) => {
    const texts = req.texts.filter(
      (t, i) => i === req.texts.length - 1 || req.maxWidth === undefined || measure(t) <= req.maxWidth,
    );
    for (const text of texts) {
      const w = measure(text) + 2 * pad;
      const h = height + 2 * pad;
      for (const s of req.spots) {
        const x0 = req.x + s.dx - s.ax * w;
        const y0 = req.y + s.dy - s.ay * h;
        const box = { x0, y0, x1: x0 + w, y1: y0 + h };
        if (!inside(box, screen) || taken(box)) continue;
        placed.push({ index, text, x: x0 + w / 2, y: y0 + h / 2, box });
        return;
      }
    }
  });
  return placed;
}
