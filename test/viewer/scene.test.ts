import { describe, expect, it } from 'vitest';
import { parseMap } from '../../renderer/parse-map.ts';
import { floorOfHeight } from '../../renderer/floors.ts';
import { findLinks } from '../../renderer/links.ts';
import { buildScene, ownerRoom, roomAt } from '../../renderer/scene.ts';
import { rawMap, referenceMap } from './fixture.ts';

describe('floors of the reference map', () => {
  it('puts each zone on its floor and leaves the Pocket Dimension out', () => {
    const lcz = buildScene(referenceMap, 'lcz');
    const hcz = buildScene(referenceMap, 'hcz');
    const surface = buildScene(referenceMap, 'surface');
    expect(lcz.rooms).toHaveLength(32);
    // Layouts LCZ "Skull" (32 cells), HCZ "Storm" (49), EZ "L" (21): facility.md part 3.
    expect(hcz.roomCountByZone).toEqual({ HeavyContainment: 49, Entrance: 21 });
    expect(surface.rooms.map((r) => r.name)).toEqual(['Outside']);
    expect(lcz.rooms.length + hcz.rooms.length + surface.rooms.length).toBe(referenceMap.rooms.length - 1);
    expect(hcz.teslas).toHaveLength(3);
    expect(lcz.doors.length + hcz.doors.length + surface.doors.length).toBe(23);
    expect(lcz.spawns.length + hcz.spawns.length + surface.spawns.length).toBe(193);
  });

  it('keeps multi-level spawns on their floor (warhead silo, 049 upper chamber, 173 upper level)', () => {
    expect(floorOfHeight(-203)).toBe('hcz');
    expect(floorOfHeight(-7)).toBe('hcz');
    expect(floorOfHeight(111.5)).toBe('lcz');
    expect(floorOfHeight(290.7)).toBe('surface');
    expect(floorOfHeight(-300)).toBeUndefined();
  });

  it('finds rooms by point and spawns by their room centre', () => {
    const lcz = buildScene(referenceMap, 'lcz');
    expect(roomAt(lcz, 46, 31)?.name).toBe('Lcz914');
    expect(roomAt(lcz, 0, 0)).toBeUndefined();
    const hcz = buildScene(referenceMap, 'hcz');
    const spawn = hcz.spawns.find((s) => s.cat === 'item:KeycardFacilityManager');
    expect(spawn && ownerRoom(hcz, spawn)?.name).toBe('Hcz079');
    expect(roomAt(buildScene(referenceMap, 'surface'), 500, -500)?.name).toBe('Outside');
  });
});

describe('elevator and checkpoint links', () => {
  it('derives the game’s fixed links when conn has no cross-floor entries', () => {
    const links = findLinks(referenceMap.rooms).map((l) => `${l.kind}:${l.a.name}-${l.b.name}`);
    expect(links.sort()).toEqual([
      'checkpoint:HczCheckpointToEntranceZone-HczCheckpointToEntranceZone',
      'checkpoint:HczCheckpointToEntranceZone-HczCheckpointToEntranceZone',
      'elevator:EzGateA-Outside',
      'elevator:EzGateB-Outside',
      'elevator:LczCheckpointA-HczCheckpointA',
      'elevator:LczCheckpointB-HczCheckpointB',
    ]);
    const cp = findLinks(referenceMap.rooms).filter((l) => l.kind === 'checkpoint');
    for (const l of cp) expect([l.b.x - l.a.x, l.b.z - l.a.z]).toEqual([15, 0]);
  });

  it('uses cross-floor conn entries with y and zone, each pair once', () => {
    const body = structuredClone(rawMap) as { rooms: { name: string; conn: object[] }[] };
    const lczA = body.rooms.find((r) => r.name === 'LczCheckpointA');
    const hczA = body.rooms.find((r) => r.name === 'HczCheckpointA');
    lczA?.conn.push({ x: 90, y: -100, z: 0, zone: 'HeavyContainment' });
    hczA?.conn.push({ x: 75, y: 100, z: 120, zone: 'LightContainment' });
    // A made-up extra link only conn knows about: it must show up too.
    const lcz914 = body.rooms.find((r) => r.name === 'Lcz914');
    lcz914?.conn.push({ x: 90, y: -100, z: 135, zone: 'HeavyContainment' });
    const links = findLinks(parseMap(body).rooms);
    expect(links.filter((l) => l.a.name === 'LczCheckpointA' || l.b.name === 'LczCheckpointA')).toHaveLength(
      1,
    );
    expect(links.some((l) => l.a.name === 'Lcz914' && l.b.name === 'Hcz106' && l.kind === 'elevator')).toBe(
      true,
    );
  });
});

describe('parseMap', () => {
  it('accepts older dumps without doors or teslas and drops malformed entries', () => {
    const m = parseMap({
      seed: 5,
      rooms: [
        { name: 'Lcz914', zone: 'LightContainment', shape: 'Endroom', x: 0, y: 100, z: 0, rotY: 0 },
        { x: 'bad' },
      ],
      spawns: [{ kind: 'item', cat: 'item:Coin', x: 1, y: 100, z: 2, rx: 0, rz: 0 }, { kind: 'weird' }],
      markers: [],
    });
    expect(m.rooms).toHaveLength(1);
    expect(m.rooms[0]?.variant).toBeNull();
    expect(m.rooms[0]?.conn).toEqual([]);
    expect(m.spawns).toHaveLength(1);
    expect(m.doors).toEqual([]);
    expect(m.teslas).toEqual([]);
  });

  it('rejects a body without rooms', () => {
    expect(() => parseMap({ status: 'pending' })).toThrow();
    expect(() => parseMap(null)).toThrow();
  });
});
