import type { Door, Room, Spawn } from './map-types.ts';
import { roomKey } from './links.ts';
import { around, union } from './box.ts';
import type { Box } from './box.ts';
import { roomGeometry } from './room-geometry.ts';

// Real rooms are larger than their 15 m cell: SCP-106's gates stand 18 m out, the warhead silo
// reaches 38 m under its neighbours. A room's extent is its drawn body grown to hold everything the
// map places in it, so every spawn and door is drawn inside the room it belongs to.

/** How far above or below the floor a point is on another level of its room (silo, upper chamber). */
export const LEVEL_TOLERANCE = 4;
/** Room walls stand a little beyond the outermost thing placed in the room. */
const MARGIN = 1;
/** An unnamed door on another level belongs to the room of a spawn this close to it. */
const SPAWN_NEAR = 5;
const HALF_CELL = 7.5;

export interface RoomExtent {
  /** On the room's own level: its body and what is placed there. Undefined for plain corridors. */
  main: Box | undefined;
  /** Everything the room holds, other levels included. */
  all: Box | undefined;
}

// Named doors and the RoomName of the room they belong to (facility.md part 5).
const DOOR_ROOM: Readonly<Record<string, string>> = {
  LczPc: 'LczComputerRoom',
  LczWc: 'LczToilets',
  LczCheckpointA: 'LczCheckpointA',
  LczCheckpointB: 'LczCheckpointB',
  LczArmory: 'LczArmory',
  Lcz173Bottom: 'Lcz173',
  Lcz173Gate: 'Lcz173',
  Lcz173Connector: 'Lcz173',
  Lcz173Armory: 'Lcz173',
  LczGr18Inner: 'LczGlassroom',
  LczGr18Gate: 'LczGlassroom',
  Lcz914Gate: 'Lcz914',
  Lcz330: 'Lcz330',
  Lcz330Chamber: 'Lcz330',
  Hcz079FirstGate: 'Hcz079',
  Hcz079SecondGate: 'Hcz079',
  Hcz079Armory: 'Hcz079',
  Hcz096: 'Hcz096',
  Hcz939Cryo: 'Hcz939',
  HczArmory: 'HczArmory',
  Hcz049Armory: 'Hcz049',
  HczHidChamber: 'HczMicroHID',
  HczHidUpper: 'HczMicroHID',
  HczHidLower: 'HczMicroHID',
  HczNukeArmory: 'HczWarhead',
  Hcz106Primiary: 'Hcz106',
  Hcz106Secondary: 'Hcz106',
  HczCheckpoint: 'HczCheckpointToEntranceZone',
  Hcz127Lab: 'Hcz127',
  EzIntercom: 'EzIntercom',
  EzGateA: 'EzGateA',
  EzGateB: 'EzGateB',
  SurfaceGate: 'Outside',
  SurfaceNuke: 'Outside',
  SurfaceEscapePrimary: 'Outside',
  SurfaceEscapeSecondary: 'Outside',
  SurfaceEscapeFinal: 'Outside',
};

const dist = (a: { x: number; z: number }, b: { x: number; z: number }): number =>
  Math.hypot(a.x - b.x, a.z - b.z);

function nearestRoom(rooms: readonly Room[], p: { x: number; z: number }): Room | undefined {
  let best: Room | undefined;
  for (const r of rooms) if (!best || dist(r, p) < dist(best, p)) best = r;
  return best;
}

const inCell = (r: Room, p: { x: number; z: number }): boolean =>
  Math.abs(p.x - r.x) <= HALF_CELL && Math.abs(p.z - r.z) <= HALF_CELL;

/** The room a spawn belongs to: the one centred at its rx, rz. */
export function spawnRoom(rooms: readonly Room[], s: Pick<Spawn, 'rx' | 'rz'>): Room | undefined {
  return rooms.find((r) => Math.abs(r.x - s.rx) < 0.5 && Math.abs(r.z - s.rz) < 0.5);
}

/**
 * The room a door belongs to. The map does not say, so: a named door's room by its name (the
 * nearest, for names several rooms share); an unnamed door on another level the room of a spawn
 * beside it; else the room whose cell holds it, else the nearest room of its zone.
 */
export function doorRoom(
  rooms: readonly Room[],
  spawns: readonly Spawn[],
  door: Door,
  floorY: number,
): Room | undefined {
  const ofZone = rooms.filter((r) => r.zone === door.zone);
  const candidates = ofZone.length ? ofZone : rooms;
  const named = DOOR_ROOM[door.name];
  const byName = named
    ? nearestRoom(
        candidates.filter((r) => r.name === named),
        door,
      )
    : undefined;
  if (byName) return byName;
  if (Math.abs(door.y - floorY) > LEVEL_TOLERANCE) {
    let near: Spawn | undefined;
    for (const s of spawns) {
      const d = Math.hypot(s.x - door.x, s.y - door.y, s.z - door.z);
      if (d <= SPAWN_NEAR && (!near || d < Math.hypot(near.x - door.x, near.y - door.y, near.z - door.z)))
        near = s;
    }
    const owner = near && spawnRoom(candidates, near);
    if (owner) return owner;
  }
  return (
    nearestRoom(
      candidates.filter((r) => inCell(r, door)),
      door,
    ) ?? nearestRoom(candidates, door)
  );
}

function grow(r: Box | undefined, p: { x: number; z: number }): Box {
  const a = around(p.x, p.z, MARGIN);
  return r ? union(r, a) : a;
}

export interface FloorExtents {
  byRoom: Map<string, RoomExtent>;
  doorOwner: Map<Door, Room>;
  spawnOwner: Map<Spawn, Room>;
}

/** Extents of one floor's rooms, and which room each of its doors and spawns belongs to. */
export function roomExtents(
  rooms: readonly Room[],
  spawns: readonly Spawn[],
  doors: readonly Door[],
  floorY: number,
): FloorExtents {
  const points = new Map<string, { x: number; y: number; z: number }[]>();
  const spawnOwner = new Map<Spawn, Room>();
  const doorOwner = new Map<Door, Room>();
  const add = (room: Room, p: { x: number; y: number; z: number }): void => {
    const k = roomKey(room);
    const list = points.get(k) ?? [];
    list.push(p);
    points.set(k, list);
  };
  for (const s of spawns) {
    const r = spawnRoom(rooms, s);
    if (!r) continue;
    spawnOwner.set(s, r);
    add(r, s);
  }
  for (const d of doors) {
    const r = doorRoom(rooms, spawns, d, floorY);
    if (!r) continue;
    doorOwner.set(d, r);
    add(r, d);
  }
  const byRoom = new Map<string, RoomExtent>();
  for (const room of rooms) {
    // Open areas (the surface) are drawn over everything known to be there already.
    if (room.shape === 'Undefined') continue;
    let main = roomGeometry(room).body;
    const elsewhere: { x: number; z: number }[] = [];
    for (const p of points.get(roomKey(room)) ?? []) {
      if (Math.abs(p.y - floorY) <= LEVEL_TOLERANCE) main = grow(main, p);
      else elsewhere.push(p);
    }
    // Same object when the room has one level: the renderer draws other levels only when they differ.
    const all = elsewhere.reduce<Box | undefined>(grow, main);
    byRoom.set(roomKey(room), { main, all });
  }
  return { byRoom, doorOwner, spawnOwner };
}
