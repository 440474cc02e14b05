import { describe, expect, it } from 'vitest';
import { buildFindIndex, findOnMap, words } from '../../viewer/src/map/find.ts';
import { FIND_ID, targetBounds } from '../../viewer/src/map/find-target.ts';
import type { FindResult } from '../../viewer/src/map/find.ts';
import { referenceMap } from './fixture.ts';

// Expected counts come from the map JSON itself (spec 2.4: `cat` is item:<ItemType>), by floor
// height: light zone 100, heavy zone and entrance -100, surface above.
const floorOfY = (y: number) => (y >= 200 ? 'surface' : y >= 0 ? 'lcz' : y > -250 ? 'hcz' : undefined);
const spawnsPerFloor = (test: (cat: string) => boolean) => {
  const out: Record<string, number> = {};
  for (const s of referenceMap.spawns) {
    const f = floorOfY(s.y);
    if (f && test(s.cat)) out[f] = (out[f] ?? 0) + 1;
  }
  return out;
};
const index = buildFindIndex(referenceMap);
const lines = (results: FindResult[]) => results.map((r) => `${r.entry.name} @${r.floor} ${r.count}`);
const perFloor = (results: FindResult[], id: string) =>
  Object.fromEntries(results.filter((r) => r.entry.id === id).map((r) => [r.floor, r.count]));

describe('find on this map', () => {
  it('finds a room by its name as players write it, and by the game name', () => {
    for (const q of ['SCP-079', 'scp 079', 'Hcz079', '  scp079 ']) {
      expect(lines(findOnMap(index, q))[0], q).toBe('SCP-079 @hcz 1');
    }
    expect(findOnMap(index, 'Micro-HID').map((r) => r.entry.id)).toContain('room:micro-hid');
  });

  it('lists a name shared by rooms on two floors once per floor', () => {
    expect(lines(findOnMap(index, 'Armory'))).toEqual(['HCZ Armory @hcz 1', 'LCZ Armory @lcz 1']);
    const airlocks = referenceMap.rooms.filter((r) => r.name === 'LczAirlock').length;
    expect(lines(findOnMap(index, 'airlock'))).toEqual([`Airlock @lcz ${airlocks}`]);
  });

  it('finds item types with their spawn points counted on every floor', () => {
    const results = findOnMap(index, 'keycard');
    // The family first (an exact word), then each keycard type.
    expect(results[0]?.entry.id).toBe('item:any-keycard');
    expect(perFloor(results, 'item:any-keycard')).toEqual(
      spawnsPerFloor((c) => c.startsWith('item:Keycard')),
    );
    const guard = spawnsPerFloor((c) => c === 'item:KeycardGuard');
    expect(Object.keys(guard).length).toBeGreaterThan(0);
    expect(perFloor(results, 'item:KeycardGuard')).toEqual(guard);
    // "group" is a random pick among types, not something to look for.
    expect(index.some((e) => e.id === 'item:group')).toBe(false);
  });

  it('finds a zone with its room count, and structure types', () => {
    const ez = findOnMap(index, 'Entrance')[0];
    expect(ez?.entry.id).toBe('zone:Entrance');
    expect(ez?.count).toBe(referenceMap.rooms.filter((r) => r.zone === 'Entrance').length);
    expect(findOnMap(index, 'EZ')[0]?.entry.id).toBe('zone:Entrance');
    const generators = findOnMap(index, 'generator');
    expect(perFloor(generators, 'struct:Scp079Generator')).toEqual(
      spawnsPerFloor((c) => c.split('|').includes('Scp079Generator')),
    );
  });

  it('needs every word of the query and finds nothing for nonsense', () => {
    expect(lines(findOnMap(index, 'hcz armory'))).toEqual(['HCZ Armory @hcz 1']);
    expect(findOnMap(index, 'pizza')).toEqual([]);
    expect(findOnMap(index, '  - ')).toEqual([]);
    expect(words('Micro-HID')).toEqual(['micro', 'hid']);
    expect(words('HczMicroHID')).toEqual(['hcz', 'micro', 'hid']);
    expect(words('LczClassDSpawn')).toEqual(['lcz', 'class', 'd', 'spawn']);
  });

  it('finds Class-D however it is written, and no digits inside unrelated names', () => {
    for (const q of ['d-class', 'class d', 'Class-D', 'classd', 'D class'])
      expect(lines(findOnMap(index, q))[0], q).toBe('Class-D Cells @lcz 1');
    // "o5" is the O5 keycard, never the 5 inside "ammo 5.56×45".
    expect(findOnMap(index, 'o5').map((r) => r.entry.id)).not.toContain('item:Ammo556x45');
    expect(findOnMap(index, '5.56').map((r) => r.entry.id)).toContain('item:Ammo556x45');
    expect(findOnMap(index, 'microhid')[0]?.entry.id).toBe('room:micro-hid');
    expect(findOnMap(index, 'nuke')[0]?.entry.id).toBe('room:alpha-warhead');
  });

  it("finds Surface's places: the escape, the Surface gate and where the gate elevators arrive", () => {
    expect(lines(findOnMap(index, 'escape'))).toEqual(['Escape @surface 1']);
    const gateA = findOnMap(index, 'gate a').map((r) => r.entry.id);
    expect(gateA.slice(0, 2)).toEqual(['room:gate-a', 'room:gate-a-surface']);
    expect(
      findOnMap(index, 'exit')
        .map((r) => r.entry.id)
        .sort(),
    ).toEqual(['room:escape', 'room:gate-a', 'room:gate-b']);
    // The gate is where the map's door list puts it.
    const door = referenceMap.doors.find((d) => d.name === 'SurfaceGate')!;
    const gate = index.find((e) => e.id === 'room:surface-gate')!.floors.surface!.rooms[0]!;
    expect([gate.x, gate.z]).toEqual([door.x, door.z]);
  });

  it('gives every entry an id a link can carry, and the spot to centre on', () => {
    for (const e of index) expect(e.id).toMatch(FIND_ID);
    const scp079 = referenceMap.rooms.find((r) => r.name === 'Hcz079')!;
    const entry = index.find((e) => e.id === 'room:scp-079')!;
    expect(targetBounds(entry.floors.hcz!)).toEqual({
      x0: scp079.x,
      x1: scp079.x,
      y0: scp079.z,
      y1: scp079.z,
    });
  });
});
