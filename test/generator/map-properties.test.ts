// Properties of generated maps over many random seeds.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateMap, MapSchema, type FacilityMap } from '../../generator/index.ts';
import { baseOpenings, roomCatalogue } from './facility-md.ts';
import { DUMP_SEED } from './reference-files.ts';

type Room = FacilityMap['rooms'][number];

const RUNS = 1000;
const seedArb = fc.integer({ min: 1, max: 2147483647 });
const examples: [number][] = [[1], [2147483647], [DUMP_SEED]];

function forAllMaps(property: (map: FacilityMap) => void, numRuns = RUNS): void {
  fc.assert(
    fc.property(seedArb, (seed) => property(generateMap(seed))),
    { numRuns, examples },
  );
}

/** A plain assertion: expect() is too slow to call this many times. */
function check(ok: boolean, message: string): asserts ok {
  if (!ok) throw new Error(message);
}

const GRID = 15;
const ATLAS_ZONES: readonly string[] = ['LightContainment', 'HeavyContainment', 'Entrance'];
const ZONE_PREFIX: Record<string, string> = {
  LightContainment: 'LCZ',
  HeavyContainment: 'HCZ',
  Entrance: 'EZ',
};
const FLOOR: Record<string, number> = {
  LightContainment: 100,
  HeavyContainment: -100,
  Entrance: -100,
  Surface: 300,
  Other: -300,
};
const prefab = (r: Room) => (r.variant ?? '').replace(/\(Clone\)$/, '');
const at = (y: number, x: number, z: number) => `${y}|${x}|${z}`;
const where = (r: Room) => `${prefab(r)} at ${r.x},${r.y},${r.z}`;

function index(map: FacilityMap): Map<string, Room> {
  const m = new Map<string, Room>();
  for (const r of map.rooms) {
    check(!m.has(at(r.y, r.x, r.z)), `two rooms at ${r.x},${r.y},${r.z}`);
    m.set(at(r.y, r.x, r.z), r);
  }
  return m;
}

/** The room a conn entry points at: same floor unless the entry names y (and zone). */
function target(rooms: Map<string, Room>, from: Room, c: Room['conn'][number]): Room {
  const r = rooms.get(at(c.y ?? from.y, c.x, c.z));
  check(r !== undefined, `conn of ${where(from)} to ${JSON.stringify(c)} meets no room`);
  check(c.zone === undefined || r.zone === c.zone, `conn ${JSON.stringify(c)} names the wrong zone`);
  check((c.y === undefined) === (r.y === from.y), `conn ${JSON.stringify(c)}: y only for another floor`);
  return r;
}

// Openings per facility.md section 2: shapes at rotation 0, +90 turns (dx, dz) into (dz, -dx); the
// Class-D spawn opens E at rotation 0; EZ prefabs are authored turned by 90 (template = world rotY + 90).
const BASE = baseOpenings();
function openings(r: Room): [number, number][] {
  const base: [number, number][] = prefab(r) === 'LCZ_ClassDSpawn' ? [[1, 0]] : BASE.get(r.shape)!;
  const turns = ((r.rotY + (r.zone === 'Entrance' ? 90 : 0)) / 90) % 4;
  return base.map(([dx, dz]) => {
    for (let i = 0; i < turns; i++) [dx, dz] = [dz, -dx];
    return [dx, dz];
  });
}

const CATALOGUE = roomCatalogue();

describe(`generated maps (${RUNS} random seeds per property)`, () => {
  it('have the base openings of facility.md to check against', () => {
    expect([...BASE.keys()].sort()).toEqual(['Curve', 'Endroom', 'Straight', 'TShape', 'XShape']);
    expect(CATALOGUE.size).toBeGreaterThan(50);
  });

  it('conform to MapSchema with markers []', () => {
    forAllMaps((map) => {
      const res = MapSchema.safeParse(map);
      check(res.success, `seed ${map.seed}: ${res.error?.message}`);
      check(map.markers.length === 0, 'markers not empty');
    }, 300);
  });

  it('are byte-identical for the same seed, whatever was generated in between', () => {
    fc.assert(
      fc.property(seedArb, seedArb, (a, b) => {
        const first = JSON.stringify(generateMap(a));
        generateMap(b);
        check(JSON.stringify(generateMap(a)) === first, `seed ${a} changed after generating ${b}`);
      }),
      { numRuns: 300 },
    );
  });

  it('have every catalogue room within its min..max (unique rooms once), one Surface and one Pocket', () => {
    forAllMaps((map) => {
      const count = new Map<string, number>();
      for (const r of map.rooms) count.set(prefab(r), (count.get(prefab(r)) ?? 0) + 1);
      check(count.get('Outside') === 1 && count.get('PocketWorld') === 1, 'Surface or Pocket not once');
      for (const r of map.rooms) {
        if (r.shape === 'Undefined') continue;
        const row = CATALOGUE.get(prefab(r));
        check(row !== undefined, `${where(r)} is not in the catalogue`);
        check(r.name === row.name && r.shape === row.shape, `${where(r)}: name or shape differ`);
        check(prefab(r).startsWith(`${ZONE_PREFIX[r.zone]}_`), `${where(r)} in zone ${r.zone}`);
      }
      for (const row of CATALOGUE.values()) {
        const n = count.get(row.prefab) ?? 0;
        check(n >= row.min && n <= row.max, `${row.prefab} x${n} outside ${row.min}..${row.max}`);
      }
    });
  });

  it('put rooms on their zone floor and the 15 m grid, each on its own spot', () => {
    forAllMaps((map) => {
      index(map);
      for (const r of map.rooms) {
        check(r.y === FLOOR[r.zone], `${where(r)} off its floor`);
        check(r.x % GRID === 0 && r.z % GRID === 0, `${where(r)} off the grid`);
      }
    });
  });

  it('open every side toward a neighbour that opens back, and conn lists exactly those on the floor', () => {
    forAllMaps((map) => {
      const rooms = index(map);
      for (const r of map.rooms) {
        if (r.shape === 'Undefined') continue;
        const expected: string[] = [];
        for (const [dx, dz] of openings(r)) {
          const n = rooms.get(at(r.y, r.x + dx * GRID, r.z + dz * GRID));
          check(n !== undefined, `${where(r)} opens toward nothing (${dx},${dz})`);
          check(
            openings(n).some(([ex, ez]) => ex === -dx && ez === -dz),
            `${where(n)} does not open back to ${where(r)}`,
          );
          // Only the HCZ/EZ checkpoint parts open into another zone.
          check(
            n.zone === r.zone || prefab(r).includes('Checkpoint Part'),
            `${where(r)} opens into ${n.zone}`,
          );
          expected.push(`${n.x},${n.z}`);
        }
        const sameFloor = r.conn.filter((c) => c.y === undefined).map((c) => `${c.x},${c.z}`);
        check(
          JSON.stringify(sameFloor.sort()) === JSON.stringify(expected.sort()),
          `${where(r)}: conn ${sameFloor} vs openings ${expected}`,
        );
      }
    });
  });

  it('connect each zone into one graph', () => {
    forAllMaps((map) => {
      const rooms = index(map);
      for (const zone of ATLAS_ZONES) {
        const members = map.rooms.filter((r) => r.zone === zone);
        check(members.length > 0, `no ${zone} rooms`);
        const seen = new Set<Room>([members[0]!]);
        const queue = [members[0]!];
        while (queue.length > 0) {
          const r = queue.pop()!;
          for (const c of r.conn) {
            const n = target(rooms, r, c);
            if (n.zone === zone && !seen.has(n)) {
              seen.add(n);
              queue.push(n);
            }
          }
        }
        check(seen.size === members.length, `${zone}: ${seen.size} of ${members.length} rooms reachable`);
      }
    });
  });

  it('have symmetric conn, including the elevator and checkpoint links', () => {
    forAllMaps((map) => {
      const rooms = index(map);
      for (const r of map.rooms) {
        const keys = r.conn.map((c) => `${c.x},${c.y ?? ''},${c.z}`);
        check(new Set(keys).size === keys.length, `${where(r)} lists a neighbour twice`);
        for (const c of r.conn) {
          const n = target(rooms, r, c);
          const back = n.conn.filter((b) => target(rooms, n, b) === r).length;
          check(back === 1, `${where(n)} lists ${where(r)} ${back} times`);
        }
      }
      const links = (a: string, b: string) =>
        map.rooms
          .filter((r) => prefab(r) === a)
          .map((r) => r.conn.filter((c) => prefab(target(rooms, r, c)) === b).length);
      check(JSON.stringify(links('LCZ_ChkpA', 'HCZ_ChkpA')) === '[1]', 'LCZ/HCZ A elevator');
      check(JSON.stringify(links('LCZ_ChkpB', 'HCZ_ChkpB')) === '[1]', 'LCZ/HCZ B elevator');
      check(JSON.stringify(links('EZ_GateA', 'Outside')) === '[1]', 'gate A elevator');
      check(JSON.stringify(links('EZ_GateB', 'Outside')) === '[1]', 'gate B elevator');
      check(
        JSON.stringify(links('HCZ_EZ_Checkpoint Part', 'EZ_HCZ_Checkpoint Part')) === '[1,1]',
        'HCZ/EZ checkpoints',
      );
    });
  });

  it('never put two tesla rooms side by side, and hang one tesla at the centre of each', () => {
    forAllMaps((map) => {
      const teslaRooms = map.rooms.filter((r) => prefab(r) === 'HCZ_Tesla_Rework');
      for (const a of teslaRooms) {
        for (const b of teslaRooms) {
          check(Math.abs(a.x - b.x) + Math.abs(a.z - b.z) !== GRID, `tesla rooms side by side: ${where(a)}`);
        }
      }
      const key = (p: { x: number; y: number; z: number }) => `${p.x},${p.y},${p.z}`;
      check(
        JSON.stringify(map.teslas.map(key).sort()) === JSON.stringify(teslaRooms.map(key).sort()),
        'teslas are not the tesla room centres',
      );
      for (const t of map.teslas) check(t.rx === t.x && t.rz === t.z, 'tesla rx/rz');
    });
  });

  // Big rooms overhang their cell: 106's doors, the warhead silo (~75 m down), 049's levels (+90, -103).
  const FLOOR_MARGIN = 15;
  const SUBLEVEL_MARGIN = 35;
  const MAX_DEPTH = 110;
  const SURFACE_RADIUS = 60;
  function near(r: Room, p: { x: number; y: number; z: number }): boolean {
    const dy = p.y - r.y;
    if (r.shape === 'Undefined')
      return Math.hypot(p.x - r.x, p.z - r.z) <= SURFACE_RADIUS && Math.abs(dy) < 50;
    const reach = GRID / 2 + (Math.abs(dy) <= 5 ? FLOOR_MARGIN : SUBLEVEL_MARGIN);
    return Math.abs(p.x - r.x) <= reach && Math.abs(p.z - r.z) <= reach && Math.abs(dy) <= MAX_DEPTH;
  }

  it('place every spawn and door near its room', () => {
    forAllMaps((map) => {
      for (const s of map.spawns) {
        const owner = map.rooms.some((r) => r.x === s.rx && r.z === s.rz && near(r, s));
        check(owner, `spawn far from its room: ${JSON.stringify(s)}`);
      }
      for (const d of map.doors) {
        check(
          map.rooms.some((r) => r.zone === d.zone && near(r, d)),
          `door far from rooms of its zone: ${JSON.stringify(d)}`,
        );
      }
    }, 300);
  });
});
