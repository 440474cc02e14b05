import type { ElevatorTarget } from './render-map.ts';

// Screen-space lookups over what the last frame drew.

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

/** Elevator icon under a screen point, with a few pixels of slack for fingers. */
export function elevatorUnder(
  elevators: readonly ElevatorTarget[],
  sx: number,
  sy: number,
): ElevatorTarget | undefined {
  const slack = 3;
  return elevators.find(
    (e) => Math.abs(e.sx - sx) <= e.size / 2 + slack && Math.abs(e.sy - sy) <= e.size / 2 + slack,
  );
}
