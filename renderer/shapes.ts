import type { Room, Shape, Zone } from './map-types.ts';

/** Cell edge a room opens toward. N = +z, E = +x, S = -z, W = -x (facility.md part 2). */
export type Dir = 'N' | 'E' | 'S' | 'W';

export const DIRS: readonly Dir[] = ['N', 'E', 'S', 'W'];

/** Unit vector of a direction in world x/z. */
export const DIR_VECTOR: Readonly<Record<Dir, { dx: number; dz: number }>> = {
  N: { dx: 0, dz: 1 },
  E: { dx: 1, dz: 0 },
  S: { dx: 0, dz: -1 },
  W: { dx: -1, dz: 0 },
};

/** Openings at template rotation 0. */
const BASE_OPENINGS: Readonly<Record<Shape, readonly Dir[]>> = {
  Endroom: ['W'],
  Straight: ['W', 'E'],
  Curve: ['S', 'E'],
  TShape: ['W', 'S', 'N'],
  XShape: ['N', 'E', 'S', 'W'],
  Undefined: [],
};

/** rotY is a clockwise yaw seen from above: +90 turns W→N, N→E, E→S, S→W. */
export function rotateDir(dir: Dir, degrees: number): Dir {
  const steps = normalizeRotation(degrees) / 90;
  const i = DIRS.indexOf(dir);
  return DIRS[(i + steps) % 4] as Dir;
}

/** Snap any angle to 0/90/180/270. */
export function normalizeRotation(degrees: number): number {
  const snapped = Math.round(degrees / 90) * 90;
  return ((snapped % 360) + 360) % 360;
}

/**
 * Template rotation of a room. Entrance prefabs are authored turned by 90°, so their world rotY is
 * the template rotation minus 90.
 */
export function templateRotation(zone: Zone, rotY: number): number {
  return normalizeRotation(zone === 'Entrance' ? rotY + 90 : rotY);
}

/** Edges a room opens toward, in world directions, sorted N, E, S, W. */
export function openings(room: Pick<Room, 'name' | 'zone' | 'shape' | 'rotY'>): Dir[] {
  // The Class-D spawn is the one Endroom whose door faces east at rotation 0.
  const base: readonly Dir[] = room.name === 'LczClassDSpawn' ? ['E'] : BASE_OPENINGS[room.shape];
  const rot = templateRotation(room.zone, room.rotY);
  const set = new Set(base.map((d) => rotateDir(d, rot)));
  return DIRS.filter((d) => set.has(d));
}

/** Direction from one cell centre to an adjacent one, or undefined when not adjacent on the grid. */
export function directionTo(from: { x: number; z: number }, to: { x: number; z: number }): Dir | undefined {
  const dx = Math.round((to.x - from.x) / 15);
  const dz = Math.round((to.z - from.z) / 15);
  if (dx === 0 && dz === 1) return 'N';
  if (dx === 1 && dz === 0) return 'E';
  if (dx === 0 && dz === -1) return 'S';
  if (dx === -1 && dz === 0) return 'W';
  return undefined;
}
