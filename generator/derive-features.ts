// Derives per-prefab feature tables (spawn points and heavy doors in the room's local frame) from a
// real map dump. Pure; generator/derive-tables.ts writes the result to data/prefab-features.json.

import { GRID, rotateLocal, round2 } from './local-frame.ts';

interface DumpRoom {
  name: string;
  zone: string;
  x: number;
  y: number;
  z: number;
  rotY: number;
  variant: string | null;
  conn: { x: number; z: number; y?: number; zone?: string }[];
}
interface DumpSpawn {
  kind: string;
  cat: string;
  x: number;
  y: number;
  z: number;
  rx: number;
  rz: number;
}
interface DumpDoor {
  name: string;
  zone: string;
  x: number;
  y: number;
  z: number;
  rotY: number;
  checkpoint: boolean;
}
export interface MapDump {
  seed: number;
  rooms: DumpRoom[];
  spawns: DumpSpawn[];
  doors: DumpDoor[];
}

/** Feature positions relative to the room centre, with the room's rotation undone. */
export interface LocalSpawn {
  kind: 'structure' | 'item';
  cat: string;
  x: number;
  y: number;
  z: number;
}
export interface LocalDoor {
  name: string;
  x: number;
  y: number;
  z: number;
  rotY: number;
  checkpoint: boolean;
}
export interface PrefabFeatures {
  /** Copies of the prefab in the source dump (all agreed). */
  copies: number;
  spawns: LocalSpawn[];
  doors: LocalDoor[];
}
export interface FeatureTables {
  source: { seed: number; note: string };
  prefabs: Record<string, PrefabFeatures>;
}

/** Named heavy doors and the prefab that owns them (facility.md section 5). */
export const DOOR_OWNERS: Readonly<Record<string, string>> = {
  LczCheckpointA: 'LCZ_ChkpA',
  LczCheckpointB: 'LCZ_ChkpB',
  Lcz173Gate: 'LCZ_173',
  LczGr18Gate: 'LCZ_372',
  Lcz914Gate: 'LCZ_914',
  Hcz079FirstGate: 'HCZ_079',
  Hcz079SecondGate: 'HCZ_079',
  Hcz106Primiary: 'HCZ_106_Rework',
  Hcz106Secondary: 'HCZ_106_Rework',
  HczCheckpoint: 'HCZ_EZ_Checkpoint Part',
  EzGateA: 'EZ_GateA',
  EzGateB: 'EZ_GateB',
  SurfaceGate: 'Outside',
};

/** Copies of one prefab must agree to within the dump's 2-decimal rounding of rotated floats. */
const AGREE = 0.02;

const prefabOf = (r: DumpRoom): string => (r.variant ?? '').replace(/\(Clone\)$/, '');
const roomKey = (r: DumpRoom): string => `${r.zone}|${r.x}|${r.y}|${r.z}`;

function toLocal(room: DumpRoom, x: number, y: number, z: number) {
  const [lx, lz] = rotateLocal(x - room.x, z - room.z, -room.rotY);
  return { x: round2(lx), y: round2(y - room.y), z: round2(lz) };
}

/** The spawn's room: centre (rx, rz), on the floor nearest the spawn's height (floors are 100+ m apart). */
function spawnRoom(dump: MapDump, s: DumpSpawn): DumpRoom {
  const candidates = dump.rooms
    .filter((r) => r.x === s.rx && r.z === s.rz)
    .sort((a, b) => Math.abs(a.y - s.y) - Math.abs(b.y - s.y));
  const [best, second] = candidates;
  if (!best) throw new Error(`no room at ${s.rx},${s.rz} for spawn ${s.cat}`);
  if (second && Math.abs(second.y - s.y) - Math.abs(best.y - s.y) < 5) {
    throw new Error(`spawn ${s.cat} at y ${s.y} is ambiguous between floors`);
  }
  return best;
}

/**
 * Unnamed doors at floor level on the shared edge of two door-connected rooms of the same zone are room
 * connectors (bulk doors): the game picks them per seed in a separate pass, so they belong to no prefab.
 */
export function isConnectorDoor(dump: { rooms: DumpRoom[] }, d: DumpDoor): boolean {
  if (d.name !== 'None') return false;
  const rooms = dump.rooms.filter((r) => r.zone === d.zone && Math.abs(r.y - d.y) < 0.5);
  return rooms.some(
    (a) =>
      Math.abs(Math.hypot(a.x - d.x, a.z - d.z) - GRID / 2) < 0.1 &&
      a.conn.some(
        (c) =>
          c.y === undefined && Math.abs((a.x + c.x) / 2 - d.x) < 0.1 && Math.abs((a.z + c.z) / 2 - d.z) < 0.1,
      ) &&
      rooms.some((b) => b !== a && Math.abs(Math.hypot(b.x - d.x, b.z - d.z) - GRID / 2) < 0.1),
  );
}

/**
 * The owner of a door: the named-door table, else (unnamed doors inside a room, e.g. on an upper level)
 * the room of the nearest known point of the same zone - room centres and the rooms' own spawn points.
 */
function doorRoom(dump: MapDump, d: DumpDoor): DumpRoom {
  const owner = DOOR_OWNERS[d.name];
  const sameZone = dump.rooms.filter((r) => r.zone === d.zone);
  if (owner) {
    const copies = sameZone.filter((r) => prefabOf(r) === owner);
    const best = copies.sort(
      (a, b) => Math.hypot(a.x - d.x, a.z - d.z) - Math.hypot(b.x - d.x, b.z - d.z),
    )[0];
    if (!best) throw new Error(`door ${d.name}: no ${owner} in the dump`);
    return best;
  }
  let best: DumpRoom | undefined;
  let bestDist = Infinity;
  const consider = (room: DumpRoom, x: number, y: number, z: number) => {
    const dist = Math.hypot(x - d.x, y - d.y, z - d.z);
    if (dist < bestDist) [best, bestDist] = [room, dist];
  };
  for (const r of sameZone) consider(r, r.x, r.y, r.z);
  for (const s of dump.spawns) {
    const r = spawnRoom(dump, s);
    if (r.zone === d.zone) consider(r, s.x, s.y, s.z);
  }
  if (!best) throw new Error(`door at ${d.x},${d.y},${d.z}: no room in ${d.zone}`);
  return best;
}

const spawnSort = (a: LocalSpawn, b: LocalSpawn) =>
  a.kind.localeCompare(b.kind) || a.cat.localeCompare(b.cat) || a.x - b.x || a.y - b.y || a.z - b.z;
const doorSort = (a: LocalDoor, b: LocalDoor) =>
  a.name.localeCompare(b.name) || a.x - b.x || a.y - b.y || a.z - b.z;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

/** Matches every copy's entries to the first copy's and keeps the per-coordinate median. */
function merge<T extends { x: number; y: number; z: number }>(
  prefab: string,
  copies: T[][],
  sameKind: (a: T, b: T) => boolean,
  what: string,
): T[] {
  const [first, ...rest] = copies;
  if (!first) return [];
  const groups = first.map((e) => [e]);
  for (const copy of rest) {
    if (copy.length !== first.length) throw new Error(`${prefab}: copies have different ${what} counts`);
    const left = [...copy];
    first.forEach((e, i) => {
      const j = left.findIndex(
        (o) =>
          sameKind(e, o) &&
          Math.abs(o.x - e.x) <= AGREE &&
          Math.abs(o.y - e.y) <= AGREE &&
          Math.abs(o.z - e.z) <= AGREE,
      );
      if (j < 0) throw new Error(`${prefab}: copies disagree on ${what} ${JSON.stringify(e)}`);
      groups[i]!.push(left.splice(j, 1)[0]!);
    });
  }
  return groups.map((g) => ({
    ...g[0]!,
    x: median(g.map((e) => e.x)),
    y: median(g.map((e) => e.y)),
    z: median(g.map((e) => e.z)),
  }));
}

export function deriveFeatureTables(dump: MapDump): FeatureTables {
  const spawnsOf = new Map<string, LocalSpawn[]>();
  const doorsOf = new Map<string, LocalDoor[]>();
  for (const r of dump.rooms) {
    spawnsOf.set(roomKey(r), []);
    doorsOf.set(roomKey(r), []);
  }
  for (const s of dump.spawns) {
    const r = spawnRoom(dump, s);
    if (s.kind !== 'structure' && s.kind !== 'item') throw new Error(`unknown spawn kind ${s.kind}`);
    spawnsOf.get(roomKey(r))!.push({ kind: s.kind, cat: s.cat, ...toLocal(r, s.x, s.y, s.z) });
  }
  for (const d of dump.doors) {
    if (isConnectorDoor(dump, d)) continue;
    const r = doorRoom(dump, d);
    const rotY = (((d.rotY - r.rotY) % 360) + 360) % 360;
    doorsOf
      .get(roomKey(r))!
      .push({ name: d.name, ...toLocal(r, d.x, d.y, d.z), rotY, checkpoint: d.checkpoint });
  }

  const byPrefab = new Map<string, DumpRoom[]>();
  for (const r of dump.rooms) {
    const p = prefabOf(r);
    if (!p) continue;
    byPrefab.set(p, [...(byPrefab.get(p) ?? []), r]);
  }
  const prefabs: Record<string, PrefabFeatures> = {};
  for (const p of [...byPrefab.keys()].sort()) {
    const rooms = byPrefab.get(p)!;
    const spawns = merge(
      p,
      rooms.map((r) => spawnsOf.get(roomKey(r))!.sort(spawnSort)),
      (a, b) => a.kind === b.kind && a.cat === b.cat,
      'spawn',
    ).sort(spawnSort);
    const doors = merge(
      p,
      rooms.map((r) => doorsOf.get(roomKey(r))!.sort(doorSort)),
      (a, b) => a.name === b.name && a.rotY === b.rotY && a.checkpoint === b.checkpoint,
      'door',
    ).sort(doorSort);
    prefabs[p] = { copies: rooms.length, spawns, doors };
  }
  return {
    source: {
      seed: dump.seed,
      note:
        'Derived by generator/derive-tables.ts from reference/dumps/map-<seed>.json. Positions are ' +
        'relative to the room centre in the prefab frame (room rotY undone). Connector bulk doors on ' +
        'shared cell edges are left out: the game places them per seed in a separate pass.',
    },
    prefabs,
  };
}
