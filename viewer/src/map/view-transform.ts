// World ↔ screen mapping of the map canvas. World +x is east and +z is north; the screen y axis
// points down, so z is flipped. `zoom` is relative to the scale that fits the floor in the canvas,
// which keeps deep links meaningful across screen sizes.

export interface Bounds {
  minX: number;
  maxX: number;
  minZ: number;
  maxZ: number;
}

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
// most of the canvas (labels near the edge are placed inwards).
const FIT_PADDING_PX = 24;
const FIT_PADDING_SHARE = 0.04;

export function clampZoom(zoom: number): number {
  if (!Number.isFinite(zoom)) return 1;
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
}

/** Pixels per metre that fit the bounds in the viewport with a small margin. */
export function fitScale(bounds: Bounds, vp: Viewport): number {
  const w = Math.max(1, bounds.maxX - bounds.minX);
  const h = Math.max(1, bounds.maxZ - bounds.minZ);
  const pad = Math.min(FIT_PADDING_PX, FIT_PADDING_SHARE * Math.min(vp.width, vp.height));
  const availW = Math.max(1, vp.width - 2 * pad);
  const availH = Math.max(1, vp.height - 2 * pad);
  return Math.min(availW / w, availH / h);
}

export function boundsCentre(bounds: Bounds): { cx: number; cz: number } {
  return { cx: (bounds.minX + bounds.maxX) / 2, cz: (bounds.minZ + bounds.maxZ) / 2 };
}

export interface Transform {
  scale: number;
  toScreen(x: number, z: number): { sx: number; sy: number };
  toWorld(sx: number, sy: number): { x: number; z: number };
}

export function makeTransform(view: View, bounds: Bounds, vp: Viewport): Transform {
  const scale = fitScale(bounds, vp) * view.zoom;
  const ox = vp.width / 2;
  const oy = vp.height / 2;
  return {
    scale,
    toScreen: (x, z) => ({ sx: ox + (x - view.cx) * scale, sy: oy - (z - view.cz) * scale }),
    toWorld: (sx, sy) => ({ x: view.cx + (sx - ox) / scale, z: view.cz - (sy - oy) / scale }),
  };
}

/** Zoom by a factor keeping the world point under (sx, sy) fixed on screen. */
export function zoomAt(
  view: View,
  bounds: Bounds,
  vp: Viewport,
  factor: number,
  sx: number,
  sy: number,
): View {
  const before = makeTransform(view, bounds, vp);
  const anchor = before.toWorld(sx, sy);
  const zoom = clampZoom(view.zoom * factor);
  const scale = fitScale(bounds, vp) * zoom;
  return {
    zoom,
    cx: anchor.x - (sx - vp.width / 2) / scale,
    cz: anchor.z + (sy - vp.height / 2) / scale,
  };
}

/** Move the view by a screen-space drag of (dx, dy) pixels. */
export function panBy(view: View, bounds: Bounds, vp: Viewport, dx: number, dy: number): View {
  const scale = fitScale(bounds, vp) * view.zoom;
  return clampCentre({ ...view, cx: view.cx - dx / scale, cz: view.cz + dy / scale }, bounds);
}

/** Keep the centre within the floor (plus a margin) so the map cannot be lost off-screen. */
export function clampCentre(view: View, bounds: Bounds): View {
  const margin = 15;
  return {
    ...view,
    cx: Math.min(bounds.maxX + margin, Math.max(bounds.minX - margin, view.cx)),
    cz: Math.min(bounds.maxZ + margin, Math.max(bounds.minZ - margin, view.cz)),
  };
}
