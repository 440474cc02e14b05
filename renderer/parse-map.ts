import type { Conn, Door, MapData, Room, Shape, Spawn, Tesla, Zone } from './map-types.ts';

// A lenient reading of the map body, typed by the API's own schema (types.ts): plain checks instead
// of a schema library keep the bundle small. Malformed entries are dropped one by one so a single
// odd record never hides the whole map; a body without rooms is rejected.

type Rec = Record<string, unknown>;

/**
 * Every value of a union, as a list the compiler holds to the union: a value the schema adds or
 * drops fails the viewer's type-check (`Missing` is then not never).
 */
function allOf<T>() {
  return <const L extends readonly T[]>(
    list: L & ([Exclude<T, L[number]>] extends [never] ? unknown : { missing: Exclude<T, L[number]> }),
  ): readonly T[] => list;
}

const ZONES = allOf<Zone>()(['LightContainment', 'HeavyContainment', 'Entrance', 'Surface', 'Other']);
const SHAPES = allOf<Shape>()(['Straight', 'Curve', 'TShape', 'XShape', 'Endroom', 'Undefined']);
const ROTATIONS = allOf<Room['rotY']>()([0, 90, 180, 270]);

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const zone = (v: unknown): Zone => (ZONES.includes(v as Zone) ? (v as Zone) : 'Other');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function conn(v: unknown): Conn | undefined {
  if (!isRec(v)) return undefined;
  const x = num(v.x);
  const z = num(v.z);
  if (x === undefined || z === undefined) return undefined;
  const c: Conn = { x, z };
  const y = num(v.y);
  if (y !== undefined) c.y = y;
  if (typeof v.zone === 'string') c.zone = zone(v.zone);
  return c;
}

function room(v: unknown): Room | undefined {
  if (!isRec(v)) return undefined;
  const x = num(v.x);
  const y = num(v.y);
  const z = num(v.z);
  if (x === undefined || y === undefined || z === undefined) return undefined;
  const shape = SHAPES.includes(v.shape as Shape) ? (v.shape as Shape) : 'Undefined';
  return {
    name: str(v.name) ?? 'Unnamed',
    zone: zone(v.zone),
    shape,
    x,
    y,
    z,
    rotY: ROTATIONS.includes(v.rotY as Room['rotY']) ? (v.rotY as Room['rotY']) : 0,
    variant: str(v.variant) ?? null,
    conn: list(v.conn)
      .map(conn)
      .filter((c): c is Conn => c !== undefined),
  };
}

function spawn(v: unknown): Spawn | undefined {
  if (!isRec(v)) return undefined;
  const x = num(v.x);
  const y = num(v.y);
  const z = num(v.z);
  const cat = str(v.cat);
  if (x === undefined || y === undefined || z === undefined || cat === undefined) return undefined;
  const kind = v.kind === 'structure' ? 'structure' : v.kind === 'item' ? 'item' : undefined;
  if (!kind) return undefined;
  return { kind, cat, x, y, z, rx: num(v.rx) ?? x, rz: num(v.rz) ?? z };
}

function door(v: unknown): Door | undefined {
  if (!isRec(v)) return undefined;
  const x = num(v.x);
  const y = num(v.y);
  const z = num(v.z);
  if (x === undefined || y === undefined || z === undefined) return undefined;
  return {
    name: str(v.name) ?? 'None',
    zone: zone(v.zone),
    x,
    y,
    z,
    rotY: num(v.rotY) ?? 0,
    checkpoint: v.checkpoint === true,
  };
}

function tesla(v: unknown): Tesla | undefined {
  if (!isRec(v)) return undefined;
  const x = num(v.x);
  const y = num(v.y);
  const z = num(v.z);
  if (x === undefined || y === undefined || z === undefined) return undefined;
  return { x, y, z, rx: num(v.rx) ?? x, rz: num(v.rz) ?? z };
}

function keep<T>(items: unknown[], parse: (v: unknown) => T | undefined): T[] {
  const out: T[] = [];
  for (const item of items) {
    const parsed = parse(item);
    if (parsed !== undefined) out.push(parsed);
  }
  return out;
}

function layouts(v: unknown): MapData['layouts'] {
  const out: MapData['layouts'] = {};
  if (!isRec(v)) return out;
  for (const z of ZONES) {
    const n = num(v[z]);
    if (n !== undefined && Number.isInteger(n) && n > 0) out[z] = n;
  }
  return out;
}

export function parseMap(body: unknown): MapData {
  if (!isRec(body) || !Array.isArray(body.rooms)) throw new Error('map body has no rooms');
  return {
    seed: num(body.seed) ?? 0,
    rooms: keep(body.rooms, room),
    spawns: keep(list(body.spawns), spawn),
    doors: keep(list(body.doors), door),
    teslas: keep(list(body.teslas), tesla),
    layouts: layouts(body.layouts),
  };
}
