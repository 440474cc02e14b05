import { describe, expect, it } from 'vitest';
import { categoryOf } from '../../renderer/spawn-kinds.ts';
import { doorInfo, spawnInfo } from '../../viewer/src/map/describe-points.ts';
import { mapSummary, matchesPerFloor, roomInfo } from '../../viewer/src/map/describe.ts';
import { itemMatches } from '../../renderer/spawn-filter.ts';
import { referenceMap } from './fixture.ts';

describe('text alternative of the map', () => {
  const lines = mapSummary(referenceMap, 'hcz');

  it('gives room counts per zone and per floor', () => {
    expect(lines[0]).toContain('104 rooms');
    expect(lines[0]).toContain('Light Containment 32');
    expect(lines[0]).toContain('Heavy Containment 49');
    expect(lines[0]).toContain('Entrance 21');
    expect(lines[1]).toMatch(/^Light Containment: 32 rooms\./);
    expect(lines[2]).toMatch(/^Heavy Containment \+ Entrance \(shown\): 70 rooms\./);
    expect(lines[3]).toMatch(/^Surface: 1 room\./);
  });

  it('names the rooms players look for, with their position', () => {
    expect(lines[1]).toContain('SCP-914 (45.0, 30.0)');
    expect(lines[2]).toContain('Gate A (165.0, 30.0)');
  });
});

describe('info panel texts', () => {
  it('describes a room with name, variant, zone and centre', () => {
    const room = referenceMap.rooms.find((r) => r.name === 'Hcz049');
    const info = room ? roomInfo(room, 75) : [];
    expect(info.map((l) => `${l.term}: ${l.detail}`)).toEqual([
      'Room: SCP-049',
      'Name: Hcz049',
      'Variant: HCZ_049',
      'Zone: Heavy Containment',
      'Shape: Straight, rotY 0°',
      'Centre: 105.0, -100.0, 45.0',
    ]);
  });

  it('describes heavy doors and marks checkpoints', () => {
    const door = referenceMap.doors.find((d) => d.name === 'LczCheckpointA');
    expect(door && doorInfo(door, 'LCZ Checkpoint A')).toEqual({
      term: 'Checkpoint door',
      detail: 'LCZ checkpoint A, in LCZ Checkpoint A',
    });
  });

  it('names a spawn by its player name and its room, and explains random picks', () => {
    const group = referenceMap.spawns.find((s) => s.cat === 'item:group');
    expect(group && spawnInfo(group, 'SCP-079').detail).toMatch(
      /^Random group: one item drawn .*, in SCP-079$/,
    );
    const gen = referenceMap.spawns.find((s) => s.cat === 'Scp079Generator|ExperimentalWeaponLocker');
    expect(gen && spawnInfo(gen, undefined)).toEqual({
      term: 'Structure spawn',
      detail:
        'SCP-079 generator (what it may hold: unknown) or Experimental weapon locker (what it may hold: unknown)',
    });
    const cabinet = referenceMap.spawns.find((s) => s.cat === 'SmallWallCabinet');
    expect(cabinet && spawnInfo(cabinet, 'SCP-914').detail).toBe(
      'Wall cabinet (may hold a medkit or adrenaline, likely), in SCP-914',
    );
    const gun = referenceMap.spawns.find((s) => s.cat === 'item:GunCOM15');
    expect(gun && spawnInfo(gun, undefined)).toEqual({ term: 'Item spawn (weapon)', detail: 'COM-15' });
  });

  it('puts every item type of the game in its category', () => {
    expect(
      [
        'GunE11SR',
        'Ammo9x19',
        'Medkit',
        'KeycardO5',
        'ArmorHeavy',
        'GrenadeHE',
        'SCP500',
        'AntiSCP207',
        'Coin',
        'group',
      ].map(categoryOf),
    ).toEqual(['weapon', 'ammo', 'medical', 'keycard', 'armour', 'grenade', 'scp', 'scp', 'other', 'other']);
    expect(categoryOf('SurfaceAccessPass')).toBe('keycard');
    expect(categoryOf('MicroHID')).toBe('weapon');
  });

  it('counts filter matches per floor', () => {
    expect(matchesPerFloor(referenceMap.spawns, (s) => itemMatches(s, 'any-keycard'))).toEqual({
      lcz: 3,
      hcz: 4,
      surface: 0,
    });
  });
});
