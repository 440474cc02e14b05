// The one rectangle of the viewer: axis-aligned, corners (x0, y0) ≤ (x1, y1). On screen y points
// down in CSS pixels; in the world the second axis is z (north), in metres.

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A box of half-size (halfW, halfH) centred on (x, y). */
export const around = (x: number, y: number, halfW: number, halfH = halfW): Box => ({
  x0: x - halfW,
  y0: y - halfH,
  x1: x + halfW,
  y1: y + halfH,
});

/** Whether (x, y) lies inside or on the edge of the box. */
export const contains = (b: Box | undefined, x: number, y: number): boolean =>
  !!b && x >= b.x0 && x <= b.x1 && y >= b.y0 && y <= b.y1;

/** Whether two boxes share more than an edge. */
export const overlaps = (a: Box, b: Box): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** Whether `a` lies wholly within `outer`. */
export const inside = (a: Box, outer: Box): boolean =>
  a.x0 >= outer.x0 && a.y0 >= outer.y0 && a.x1 <= outer.x1 && a.y1 <= outer.y1;

/** The smallest box holding both (the first alone when the second is missing). */
export const union = (a: Box, b: Box | undefined): Box =>
  b
    ? {
        x0: Math.min(a.x0, b.x0),
        y0: Math.min(a.y0, b.y0),
        x1: Math.max(a.x1, b.x1),
        y1: Math.max(a.y1, b.y1),
      }
    : a;

/** The box grown by `by` on every side (shrunk when negative). */
export const grow = (b: Box, by: number): Box => ({
  x0: b.x0 - by,
  y0: b.y0 - by,
  x1: b.x1 + by,
  y1: b.y1 + by,
});

export const width = (b: Box): number => b.x1 - b.x0;
export const height = (b: Box): number => b.y1 - b.y0;
export const centre = (b: Box): { x: number; y: number } => ({ x: (b.x0 + b.x1) / 2, y: (b.y0 + b.y1) / 2 });

/** The box of two corners given in any order. */
export const spanning = (ax: number, ay: number, bx: number, by: number): Box => ({
  x0: Math.min(ax, bx),
  y0: Math.min(ay, by),
  x1: Math.max(ax, bx),
  y1: Math.max(ay, by),
});
