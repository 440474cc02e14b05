// generateMap(224593721) against the real dump of that seed.

import { describe, expect, it } from 'vitest';
import { generateMap, mapSummary, MapSchema, type FacilityMap } from '../../generator/index.ts';
import { drawFacility } from '../../generator/facility-draws.ts';
import { DUMP_FILE, DUMP_SEED, readReference, readReferenceJson } from './reference-files.ts';

type Room = FacilityMap['rooms'][number];
type Door = FacilityMap['doors'][number];

const dump = readReferenceJson<FacilityMap>(DUMP_FILE);
const map = generateMap(DUMP_SEED);
const doorOnly = generateMap(DUMP_SEED, { links: false });

/** Derived positions: the dump's 2-decimal rounding of rotated floats, plus float slack. */
const TOL = 0.011;

const roomKey = (r: Pick<Room, 'zone' | 'x' | 'y' | 'z'>) => `${r.zone}|${r.x}|${r.y}|${r.z}`;
const connKey = (c: Room['conn'][number]) => `${c.x},${c.z},${c.y ?? ''},${c.zone ?? ''}`;
const connSet = (r: Room) => [...new Set(r.conn.map(connKey))].sort();
const prefab = (r: Room) => (r.variant ?? '').replace(/\(Clone\)$/, '');

function byKey(rooms: Room[]): Map<string, Room> {
  const m = new Map(rooms.map((r) => [roomKey(r), r]));
  expect(m.size).toBe(rooms.length); // positions are unique
  return m;
}

/** Pairs every expected entry with an unused actual one; returns what is left on either side. */
function matchMultiset<T>(actual: T[], expected: T[], same: (a: T, e: T) => boolean) {
  const left = [...actual];
  const missing: T[] = [];
  for (const e of expected) {
    const i = left.findIndex((a) => same(a, e));
    if (i < 0) missing.push(e);
    else left.splice(i, 1);
  }
  return { missing, extra: left };
}

const near = (a: number, b: number) => Math.abs(a - b) <= TOL;

describe(`map of seed ${DUMP_SEED} vs the dump`, () => {
  const mine = byKey(map.rooms);
  const theirs = byKey(dump.rooms);

  it('draws the layouts facility.md names for this seed (LCZ 4, HCZ 1, EZ 3)', () => {
    const md = readReference('facility.md');
    const m = /layout indices LCZ (\d+) \([^)]*\),\s+HCZ (\d+)\s+\([^)]*\),\s+EZ (\d+)/.exec(md);
    expect(m).not.toBeNull();
    const d = drawFacility(DUMP_SEED);
    expect([d.lcz.layout.index, d.hcz.layout.index, d.ez.layout.index]).toEqual(m!.slice(1, 4).map(Number));
    // The map says so too, numbered from 1 as players count them.
    expect(map.layouts).toEqual({
      LightContainment: Number(m![1]) + 1,
      HeavyContainment: Number(m![2]) + 1,
      Entrance: Number(m![3]) + 1,
    });
  });

  it('has the same rooms at the same positions', () => {
    expect(map.rooms).toHaveLength(dump.rooms.length);
    expect([...mine.keys()].sort()).toEqual([...theirs.keys()].sort());
  });

  it('matches name, variant, zone, shape, position and rotY of every room exactly', () => {
    for (const [key, d] of theirs) {
      const r = mine.get(key)!;
      const { conn: _a, ...rest } = r;
      const { conn: _b, ...expected } = d;
      expect(rest, key).toEqual(expected);
    }
  });

  it('with links off, matches conn of every room exactly as a set', () => {
    const plain = byKey(doorOnly.rooms);
    for (const [key, d] of theirs) expect(connSet(plain.get(key)!), key).toEqual(connSet(d));
  });

  it('by default, adds exactly the checkpoint and elevator links to the dump conn', () => {
    // Expected links, worked out from the dump's own rooms.
    const rooms = dump.rooms;
    const one = (p: string) => rooms.filter((r) => prefab(r) === p);
    const pairs: [Room, Room][] = [];
    for (const h of one('HCZ_EZ_Checkpoint Part')) {
      const e = one('EZ_HCZ_Checkpoint Part').filter((x) => x.z === h.z);
      expect(e).toHaveLength(1);
      pairs.push([h, e[0]!]);
    }
    for (const [a, b] of [
      ['LCZ_ChkpA', 'HCZ_ChkpA'],
      ['LCZ_ChkpB', 'HCZ_ChkpB'],
      ['EZ_GateA', 'Outside'],
      ['EZ_GateB', 'Outside'],
    ] as const) {
      expect(one(a)).toHaveLength(1);
      expect(one(b)).toHaveLength(1);
      pairs.push([one(a)[0]!, one(b)[0]!]);
    }
    const extra = new Map<string, string[]>();
    const add = (from: Room, to: Room) => {
      const c = from.y === to.y ? { x: to.x, z: to.z } : { x: to.x, z: to.z, y: to.y, zone: to.zone };
      extra.set(roomKey(from), [...(extra.get(roomKey(from)) ?? []), connKey(c)]);
    };
    for (const [a, b] of pairs) {
      add(a, b);
      add(b, a);
    }
    for (const [key, d] of theirs) {
      const expected = [...new Set([...d.conn.map(connKey), ...(extra.get(key) ?? [])])].sort();
      expect(connSet(mine.get(key)!), key).toEqual(expected);
    }
  });

  it('has the dump teslas exactly', () => {
    const res = matchMultiset(map.teslas, dump.teslas, (a, e) => JSON.stringify(a) === JSON.stringify(e));
    expect(res).toEqual({ missing: [], extra: [] });
    expect(map.teslas.length).toBeGreaterThan(0);
  });

  it('has the dump spawn points (multiset, positions within 0.01)', () => {
    expect(map.spawns).toHaveLength(dump.spawns.length);
    const res = matchMultiset(
      map.spawns,
      dump.spawns,
      (a, e) =>
        a.kind === e.kind &&
        a.cat === e.cat &&
        a.rx === e.rx &&
        a.rz === e.rz &&
        near(a.x, e.x) &&
        near(a.y, e.y) &&
        near(a.z, e.z),
    );
    expect(res).toEqual({ missing: [], extra: [] });
  });

  // Unnamed floor-level doors midway between two rooms of one zone are room connectors (bulk doors); the
  // game assigns those per seed in a separate pass over data that is not public, so we do not make them.
  const isConnector = (d: Door) =>
    d.name === 'None' &&
    dump.rooms.filter(
      (r) =>
        r.zone === d.zone &&
        Math.abs(r.y - d.y) < 0.5 &&
        Math.abs(Math.hypot(r.x - d.x, r.z - d.z) - 7.5) < 0.1,
    ).length === 2;

  it('has every dump door except the per-seed connector doors (multiset, within 0.01)', () => {
    const expected = dump.doors.filter((d) => !isConnector(d));
    expect(map.doors).toHaveLength(expected.length);
    const res = matchMultiset(
      map.doors,
      expected,
      (a, e) =>
        a.name === e.name &&
        a.zone === e.zone &&
        a.rotY === e.rotY &&
        a.checkpoint === e.checkpoint &&
        near(a.x, e.x) &&
        near(a.y, e.y) &&
        near(a.z, e.z),
    );
    expect(res).toEqual({ missing: [], extra: [] });
  });

  it('leaves out only unnamed connector doors, none of ours lies on such a spot', () => {
    const skipped = dump.doors.filter(isConnector);
    for (const d of skipped) {
      expect(d.name).toBe('None');
      expect(map.doors.some((o) => near(o.x, d.x) && near(o.y, d.y) && near(o.z, d.z))).toBe(false);
    }
  });

  it('writes markers as [] and passes MapSchema, as does the dump', () => {
    expect(map.markers).toEqual([]);
    expect(MapSchema.safeParse(map).success).toBe(true);
    expect(MapSchema.safeParse(doorOnly).success).toBe(true);
    expect(MapSchema.safeParse(dump).error).toBeUndefined();
  });

  it('summarises to the dump counts', () => {
    expect(mapSummary(map)).toEqual({ roomCount: dump.rooms.length, spawns: dump.spawns.length, markers: 0 });
  });

  it('orders rooms LCZ, HCZ, EZ, then Surface and Pocket', () => {
    const zones = map.rooms.map((r) => r.zone);
    const order = ['LightContainment', 'HeavyContainment', 'Entrance', 'Surface', 'Other'];
    const ranks = zones.map((z) => order.indexOf(z));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(zones.slice(-2)).toEqual(['Surface', 'Other']);
  });
});
