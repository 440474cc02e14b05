import type { Room } from '../api/types.ts';
import { roomLabel } from './labels.ts';
import { openings, DIR_VECTOR } from './shapes.ts';
import type { Dir } from './shapes.ts';
import { CELL } from './scene.ts';

/** Axis-aligned rectangle in world metres. */
export interface Rect {
  x0: number;
  z0: number;
  x1: number;
  z1: number;
}

export interface RoomGeometry {
  /** The full 15 m grid cell (hover target, faint backdrop). */
  cell: Rect;
  /** Corridor pieces: a core plus one arm per opening, reaching the cell edge. */
  corridors: Rect[];
  /** The room proper for named rooms; fillers are corridors only. */
  body: Rect | undefined;
  openings: Dir[];
}

const HALF = CELL / 2;
export const CORRIDOR_WIDTH = 5;
// Undefined-shape areas (the surface) have no cell; the renderer draws them over the scene's
// open area instead, this square is only the fallback.
const OPEN_AREA_HALF = 15;

const rect = (cx: number, cz: number, halfX: number, halfZ: number): Rect => ({
  x0: cx - halfX,
  z0: cz - halfZ,
  x1: cx + halfX,
  z1: cz + halfZ,
});

function arm(room: Room, dir: Dir): Rect {
  const { dx, dz } = DIR_VECTOR[dir];
  const w = CORRIDOR_WIDTH / 2;
  // From the centre to the cell edge, as wide as a corridor.
  const midX = room.x + (dx * HALF) / 2;
  const midZ = room.z + (dz * HALF) / 2;
  return rect(midX, midZ, dx !== 0 ? HALF / 2 : w, dz !== 0 ? HALF / 2 : w);
}

function bodyOf(room: Room, dirs: readonly Dir[]): Rect | undefined {
  if (room.shape === 'Undefined') return rect(room.x, room.z, OPEN_AREA_HALF, OPEN_AREA_HALF);
  if (!roomLabel(room)) return undefined;
  switch (room.shape) {
    case 'Endroom':
      return rect(room.x, room.z, 5.5, 5.5);
    case 'Straight': {
      // Long side along the corridor.
      const alongX = dirs.includes('E') || dirs.includes('W');
      return rect(room.x, room.z, alongX ? 6.5 : 4.5, alongX ? 4.5 : 6.5);
    }
    default:
      return rect(room.x, room.z, 5, 5);
  }
}

export function roomGeometry(room: Room): RoomGeometry {
  const dirs = openings(room);
  const w = CORRIDOR_WIDTH / 2;
  const corridors =
    room.shape === 'Undefined' ? [] : [rect(room.x, room.z, w, w), ...dirs.map((d) => arm(room, d))];
  return {
    cell: rect(room.x, room.z, HALF, HALF),
    corridors,
    body: bodyOf(room, dirs),
    openings: dirs,
  };
}
