import type { Room } from './map-types.ts';
import { roomLabel } from './labels.ts';
import { openings, DIR_VECTOR } from './shapes.ts';
import type { Dir } from './shapes.ts';
import { around } from './box.ts';
import type { Box } from './box.ts';

/** The facility's grid: every room sits in a 15 m square cell. */
export const CELL = 15;

export interface RoomGeometry {
  /** The full 15 m grid cell (hover target, faint backdrop). */
  cell: Box;
  /** Corridor pieces: a core plus one arm per opening, reaching the cell edge. */
  corridors: Box[];
  /** The room proper for named rooms; fillers are corridors only. */
  body: Box | undefined;
  openings: Dir[];
}

const HALF = CELL / 2;
export const CORRIDOR_WIDTH = 5;
// Undefined-shape areas (the surface) have no cell; the renderer draws them over the scene's
// open area instead, this square is only the fallback.
const OPEN_AREA_HALF = 15;

function arm(room: Room, dir: Dir): Box {
  const { dx, dz } = DIR_VECTOR[dir];
  const w = CORRIDOR_WIDTH / 2;
  // From the centre to the cell edge, as wide as a corridor.
  const midX = room.x + (dx * HALF) / 2;
  const midZ = room.z + (dz * HALF) / 2;
  return around(midX, midZ, dx !== 0 ? HALF / 2 : w, dz !== 0 ? HALF / 2 : w);
}

function bodyOf(room: Room, dirs: readonly Dir[]): Box | undefined {
  if (room.shape === 'Undefined') return around(room.x, room.z, OPEN_AREA_HALF, OPEN_AREA_HALF);
  if (!roomLabel(room)) return undefined;
  switch (room.shape) {
    case 'Endroom':
      return around(room.x, room.z, 5.5, 5.5);
    case 'Straight': {
      // Long side along the corridor.
      const alongX = dirs.includes('E') || dirs.includes('W');
      return around(room.x, room.z, alongX ? 6.5 : 4.5, alongX ? 4.5 : 6.5);
    }
    default:
      return around(room.x, room.z, 5, 5);
  }
}

export function roomGeometry(room: Room): RoomGeometry {
  const dirs = openings(room);
  const w = CORRIDOR_WIDTH / 2;
  const corridors =
    room.shape === 'Undefined' ? [] : [around(room.x, room.z, w, w), ...dirs.map((d) => arm(room, d))];
  return {
    cell: around(room.x, room.z, HALF, HALF),
    corridors,
    body: bodyOf(room, dirs),
    openings: dirs,
  };
}
