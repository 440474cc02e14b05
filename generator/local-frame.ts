// Quarter-turn rotations between a prefab's local frame and the world, done exactly (no trig).

/** Cell size of the room grid in metres (RoomIdentifier.GridScale x and z). */
export const GRID = 15;

/**
 * Rotates (dx, dz) by `degrees` (a multiple of 90) the way Unity's yaw does: clockwise seen from above,
 * so +90 turns +z (north) into +x (east).
 */
export function rotateLocal(dx: number, dz: number, degrees: number): [number, number] {
  switch ((((Math.round(degrees / 90) % 4) + 4) % 4) as 0 | 1 | 2 | 3) {
    case 0:
      return [dx, dz];
    case 1:
      return [dz, -dx];
    case 2:
      return [-dx, -dz];
    case 3:
      return [-dz, dx];
  }
}

/** The dump writes coordinates with 2 decimals. */
export function round2(v: number): number {
  const r = Math.round(v * 100) / 100;
  return r === 0 ? 0 : r; // no -0 in the JSON
}
