import type { ElevatorTarget } from './layers/layer.ts';

// Screen-space lookups over what a layer drew on its last frame (each layer answers its own).

/** The mark closest to a screen point within `radius` pixels. */
export function nearest<T extends { sx: number; sy: number }>(
  marks: readonly T[],
  sx: number,
  sy: number,
  radius: number,
): T | undefined {
  let best: T | undefined;
  let bestD = radius;
  for (const m of marks) {
    const d = Math.hypot(m.sx - sx, m.sy - sy);
    if (d <= bestD) {
      best = m;
      bestD = d;
    }
  }
  return best;
}

/** Smallest touch target, in CSS px (WCAG 2.5.5): an icon drawn smaller still answers in this box. */
export const MIN_TARGET_PX = 44;

/**
 * Elevator icon under a screen point: within the icon with a few pixels of slack, and at least
 * within a 44×44 px box around its centre, so a finger finds the 12 px icon; where boxes overlap,
 * the nearest icon.
 */
export function elevatorUnder(
  elevators: readonly ElevatorTarget[],
  sx: number,
  sy: number,
): ElevatorTarget | undefined {
  const inBox = elevators.filter((e) => {
    const half = Math.max(e.size / 2 + 3, MIN_TARGET_PX / 2);
    return Math.abs(e.sx - sx) <= half && Math.abs(e.sy - sy) <= half;
  });
  return nearest(inBox, sx, sy, Infinity);
}
