import type { Door, MapData, Room, Spawn, Tesla, Zone } from './map-types.ts';
import { floorById, floorOf } from './floors.ts';
import type { FloorId } from './floors.ts';
import { checkpointSplit } from './labels.ts';
import { findLinks, roomKey } from './links.ts';
import type { RoomLink } from './links.ts';
import { contains, grow } from './box.ts';
import type { Box } from './box.ts';
import { roomExtents, spawnRoom } from './room-extents.ts';
import { CELL } from './room-geometry.ts';
import type { FloorExtents, RoomExtent } from './room-extents.ts';
import { surfacePlaces } from './surface-places.ts';

const HALF = CELL / 2;
const OPEN_MARGIN = 12;

/** Everything drawn for one floor, precomputed once per map and floor. */
export interface FloorScene {
  floor: FloorId;
  floorY: number;
  rooms: Room[];
  doors: Door[];
  teslas: Tesla[];
  spawns: Spawn[];
  /** Links with at least one end on this floor. */
  links: RoomLink[];
  bounds: Box;
  /** Extent of an open area without a room grid (the surface), if the floor has one. */
  openArea: Box | undefined;
  checkpointSplitZ: number | undefined;
  /** Each room's extent and the room each door and spawn belongs to. */
  extents: FloorExtents;
  roomCountByZone: Partial<Record<Zone, number>>;
}

function roomOnFloor(room: Room, floor: FloorId): boolean {
  return floorOf(room) === floor;
}

function boundsOf(rooms: readonly Room[], points: readonly { x: number; z: number }[]): Box {
  const b: Box = { x0: Infinity, x1: -Infinity, y0: Infinity, y1: -Infinity };
  for (const r of rooms) {
    b.x0 = Math.min(b.x0, r.x - HALF);
    b.x1 = Math.max(b.x1, r.x + HALF);
    b.y0 = Math.min(b.y0, r.z - HALF);
    b.y1 = Math.max(b.y1, r.z + HALF);
  }
  for (const p of points) {
    b.x0 = Math.min(b.x0, p.x - 4);
    b.x1 = Math.max(b.x1, p.x + 4);
    b.y0 = Math.min(b.y0, p.z - 4);
    b.y1 = Math.max(b.y1, p.z + 4);
  }
  if (!Number.isFinite(b.x0)) return { x0: -HALF, x1: HALF, y0: -HALF, y1: HALF };
  return b;
}

export function buildScene(map: MapData, floor: FloorId): FloorScene {
  const rooms = map.rooms.filter((r) => roomOnFloor(r, floor));
  const keys = new Set(rooms.map(roomKey));
  const doors = map.doors.filter((d) => floorOf(d) === floor);
  const teslas = map.teslas.filter((t) => floorOf(t) === floor);
  const spawns = map.spawns.filter((s) => floorOf(s) === floor);
  const links = findLinks(map.rooms).filter((l) => keys.has(roomKey(l.a)) || keys.has(roomKey(l.b)));
  const roomCountByZone: Partial<Record<Zone, number>> = {};
  for (const r of rooms) roomCountByZone[r.zone] = (roomCountByZone[r.zone] ?? 0) + 1;
  // Doors and spawns of big rooms overhang their cell (SCP-106's gates sit 18 m out), so they
  // widen the view too.
  // Surface's known places (the escape) stand in its open area too.
  const places = floor === 'surface' ? surfacePlaces(map) : [];
  const bounds = boundsOf(rooms, [...doors, ...spawns, ...teslas, ...places]);
  // The surface is one open area whose geometry the map does not carry: it is drawn as a plain
  // area around everything known to be there.
  const openArea = rooms.some((r) => r.shape === 'Undefined') ? grow(bounds, OPEN_MARGIN) : undefined;
  const floorY = floorById(floor).y;
  const extents = roomExtents(rooms, spawns, doors, floorY);
  if (openArea) {
    for (const room of rooms)
      if (room.shape === 'Undefined') extents.byRoom.set(roomKey(room), { main: openArea, all: openArea });
  }
  return {
    floor,
    floorY,
    rooms,
    doors,
    teslas,
    spawns,
    links,
    bounds: openArea ?? bounds,
    openArea,
    checkpointSplitZ: checkpointSplit(map.rooms),
    extents,
    roomCountByZone,
  };
}

export function extentOf(scene: FloorScene, room: Room): RoomExtent | undefined {
  return scene.extents.byRoom.get(roomKey(room));
}

/**
 * Room whose 15 m cell contains the world point, else one whose extent reaches out to it (big rooms
 * overhang their cell); the surface is the one open area.
 */
export function roomAt(scene: FloorScene, x: number, z: number): Room | undefined {
  return cellRoomAt(scene, x, z) ?? scene.rooms.find((r) => contains(extentOf(scene, r)?.main, x, z));
}

function cellRoomAt(scene: FloorScene, x: number, z: number): Room | undefined {
  let best: Room | undefined;
  let bestD = Infinity;
  for (const r of scene.rooms) {
    if (r.shape === 'Undefined') {
      // Open areas have no cell; they are the fallback when nothing else is under the point.
      if (!best) best = r;
      continue;
    }
    const dx = Math.abs(x - r.x);
    const dz = Math.abs(z - r.z);
    if (dx <= HALF && dz <= HALF && dx + dz < bestD) {
      best = r;
      bestD = dx + dz;
    }
  }
  return best;
}

/** Room a spawn or tesla belongs to, by its rx/rz on this floor. */
export function ownerRoom(scene: FloorScene, p: { rx: number; rz: number }): Room | undefined {
  return spawnRoom(scene.rooms, p);
}
