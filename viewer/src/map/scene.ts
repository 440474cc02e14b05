import type { Door, MapData, Room, Spawn, Tesla, Zone } from '../api/types.ts';
import { floorById, floorOfHeight, floorOfZone } from './floors.ts';
import type { FloorId } from './floors.ts';
import { checkpointSplit } from './labels.ts';
import { findLinks, roomKey } from './links.ts';
import type { RoomLink } from './links.ts';
import { contains, roomExtents, spawnRoom } from './room-extents.ts';
import type { FloorExtents, RoomExtent } from './room-extents.ts';
import type { Bounds } from './view-transform.ts';

export const CELL = 15;
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
  bounds: Bounds;
  /** Extent of an open area without a room grid (the surface), if the floor has one. */
  openArea: Bounds | undefined;
  checkpointSplitZ: number | undefined;
  /** Each room's extent and the room each door and spawn belongs to. */
  extents: FloorExtents;
  roomCountByZone: Partial<Record<Zone, number>>;
}

function roomOnFloor(room: Room, floor: FloorId): boolean {
  return (floorOfZone(room.zone) ?? floorOfHeight(room.y)) === floor;
}

function boundsOf(rooms: readonly Room[], points: readonly { x: number; z: number }[]): Bounds {
  const b: Bounds = { minX: Infinity, maxX: -Infinity, minZ: Infinity, maxZ: -Infinity };
  for (const r of rooms) {
    b.minX = Math.min(b.minX, r.x - HALF);
    b.maxX = Math.max(b.maxX, r.x + HALF);
    b.minZ = Math.min(b.minZ, r.z - HALF);
    b.maxZ = Math.max(b.maxZ, r.z + HALF);
  }
  for (const p of points) {
    b.minX = Math.min(b.minX, p.x - 4);
    b.maxX = Math.max(b.maxX, p.x + 4);
    b.minZ = Math.min(b.minZ, p.z - 4);
    b.maxZ = Math.max(b.maxZ, p.z + 4);
  }
  if (!Number.isFinite(b.minX)) return { minX: -HALF, maxX: HALF, minZ: -HALF, maxZ: HALF };
  return b;
}

export function buildScene(map: MapData, floor: FloorId): FloorScene {
  const rooms = map.rooms.filter((r) => roomOnFloor(r, floor));
  const keys = new Set(rooms.map(roomKey));
  const doors = map.doors.filter((d) => (floorOfZone(d.zone) ?? floorOfHeight(d.y)) === floor);
  const teslas = map.teslas.filter((t) => floorOfHeight(t.y) === floor);
  const spawns = map.spawns.filter((s) => floorOfHeight(s.y) === floor);
  const links = findLinks(map.rooms).filter((l) => keys.has(roomKey(l.a)) || keys.has(roomKey(l.b)));
  const roomCountByZone: Partial<Record<Zone, number>> = {};
  for (const r of rooms) roomCountByZone[r.zone] = (roomCountByZone[r.zone] ?? 0) + 1;
  // Doors and spawns of big rooms overhang their cell (SCP-106's gates sit 18 m out), so they
  // widen the view too.
  const bounds = boundsOf(rooms, [...doors, ...spawns, ...teslas]);
  // The surface is one open area whose geometry the map does not carry: it is drawn as a plain
  // area around everything known to be there.
  const openArea = rooms.some((r) => r.shape === 'Undefined')
    ? {
        minX: bounds.minX - OPEN_MARGIN,
        maxX: bounds.maxX + OPEN_MARGIN,
        minZ: bounds.minZ - OPEN_MARGIN,
        maxZ: bounds.maxZ + OPEN_MARGIN,
      }
    : undefined;
  const floorY = floorById(floor).y;
  const extents = roomExtents(rooms, spawns, doors, floorY);
  if (openArea) {
    const r = { x0: openArea.minX, z0: openArea.minZ, x1: openArea.maxX, z1: openArea.maxZ };
    for (const room of rooms)
      if (room.shape === 'Undefined') extents.byRoom.set(roomKey(room), { main: r, all: r });
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
  return cellRoomAt(scene, x, z) ?? scene.rooms.find((r) => contains(extentOf(scene, r)?.main, { x, z }));
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
