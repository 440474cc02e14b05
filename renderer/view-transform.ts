// World ↔ screen mapping of the map canvas. World +x is east and +z is north; the screen y axis
// points down, so z is flipped. `zoom` is relative to the scale that fits the floor in the canvas,
// which keeps deep links meaningful across screen sizes.

import type { Box } from './box.ts';

export interface View {
  /** World point at the canvas centre. */
  cx: number;
  cz: number;
  /** Multiplier of the fit scale. */
  zoom: number;
}

export interface Viewport {
  width: number;
  height: number;
}

export const MIN_ZOOM = 0.5;
export const MAX_ZOOM = 12;
// A margin around the floor at the fit zoom, so edge symbols are not cut; small, so the floor uses
// most of the canvas (labels near the edge are placed inwards): 10 px on a phone, 24 on a desktop.
const FIT_PADDING_PX = 24;
const FIT_PADDING_SHARE = 0.025;

export function clampZoom(zoom: number): number {
  if (!Number.isFinite(zoom)) return 1;
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
}

/**
 * Whether the floor is drawn turned a quarter clockwise (north to the right, east down): a wide
 * floor in a tall box (a phone held upright) then fills the box instead of a band across it.
 */
export function turned(bounds: Box, vp: Viewport): boolean {
  const w = bounds.x1 - bounds.x0;
  const h = bounds.y1 - bounds.y0;
  return vp.height > vp.width * TURN_RATIO && w > h * TURN_RATIO;
}
/** Both the box and the floor must be clearly longer one way: a square stays as it is. */
const TURN_RATIO = 1.15;

/** Pixels per metre that fit the bounds in the viewport with a small margin (`turn`: turned). */
export function fitScale(bounds: Box, vp: Viewport, turn = turned(bounds, vp)): number {
  const across = Math.max(1, bounds.x1 - bounds.x0);
  const along = Math.max(1, bounds.y1 - bounds.y0);
  const [w, h] = turn ? [along, across] : [across, along];
  const pad = Math.min(FIT_PADDING_PX, FIT_PADDING_SHARE * Math.min(vp.width, vp.height));
  const availW = Math.max(1, vp.width - 2 * pad);
  const availH = Math.max(1, vp.height - 2 * pad);
  return Math.min(availW / w, availH / h);
}

export function boundsCentre(bounds: Box): { cx: number; cz: number } {
  return { cx: (bounds.x0 + bounds.x1) / 2, cz: (bounds.y0 + bounds.y1) / 2 };
}

export interface Transform {
  scale: number;
  /** Degrees the floor is turned clockwise on screen (0 or 90): symbols drawn at an angle add it. */
  turn: number;
  toScreen(x: number, z: number): { sx: number; sy: number };
  toWorld(sx: number, sy: number): { x: number; z: number };
}

export function makeTransform(view: View, bounds: Box, vp: Viewport): Transform {
  const turn = turned(bounds, vp);
  const scale = fitScale(bounds, vp, turn) * view.zoom;
  const ox = vp.width / 2;
  const oy = vp.height / 2;
  if (turn) {
    return {
      scale,
      turn: 90,
      toScreen: (x, z) => ({ sx: ox + (z - view.cz) * scale, sy: oy + (x - view.cx) * scale }),
      toWorld: (sx, sy) => ({ x: view.cx + (sy - oy) / scale, z: view.cz + (sx - ox) / scale }),
    };
  }
  return {
    scale,
    turn: 0,
    toScreen: (x, z) => ({ sx: ox + (x - view.cx) * scale, sy: oy - (z - view.cz) * scale }),
    toWorld: (sx, sy) => ({ x: view.cx + (sx - ox) / scale, z: view.cz - (sy - oy) / scale }),
  };
}

/** Zoom by a factor keeping the world point under (sx, sy) fixed on screen. */
export function zoomAt(view: View, bounds: Box, vp: Viewport, factor: number, sx: number, sy: number): View {
  const anchor = makeTransform(view, bounds, vp).toWorld(sx, sy);
  const zoom = clampZoom(view.zoom * factor);
  // Centred on the anchor, the point (sx, sy) shows `w`; the centre that puts the anchor there
  // lies as far from the anchor the other way.
  const w = makeTransform({ cx: anchor.x, cz: anchor.z, zoom }, bounds, vp).toWorld(sx, sy);
  return { zoom, cx: 2 * anchor.x - w.x, cz: 2 * anchor.z - w.z };
}

/** Move the view by a screen-space drag of (dx, dy) pixels. */
export function panBy(view: View, bounds: Box, vp: Viewport, dx: number, dy: number): View {
  const c = makeTransform(view, bounds, vp).toWorld(vp.width / 2 - dx, vp.height / 2 - dy);
  return clampCentre({ ...view, cx: c.x, cz: c.z }, bounds);
}

/** Keep the centre within the floor (plus a margin) so the map cannot be lost off-screen. */
export function clampCentre(view: View, bounds: Box): View {
  const margin = 15;
  return {
    ...view,
    cx: Math.min(bounds.x1 + margin, Math.max(bounds.x0 - margin, view.cx)),
    cz: Math.min(bounds.y1 + margin, Math.max(bounds.y0 - margin, view.cz)),
  };
}
