import { describe, expect, it } from 'vitest';
import {
  itemMatches,
  itemOptions,
  itemType,
  structureMatches,
  structureOptions,
  structureTypes,
} from '../../renderer/spawn-filter.ts';
import { referenceMap } from './fixture.ts';

describe('spawn filters derived from the map', () => {
  const items = itemOptions(referenceMap.spawns);

  it('lists every item type of the map with its count, plus families that occur', () => {
    const byValue = new Map(items.map((o) => [o.value, o.count]));
    expect(byValue.get('all')).toBe(130);
    expect(byValue.get('KeycardScientist')).toBe(1);
    expect(byValue.get('KeycardZoneManager')).toBe(2);
    expect(byValue.get('Ammo9x19')).toBe(31);
    expect(byValue.get('group')).toBe(26);
    // 1 Scientist + 2 ZoneManager + 2 MTFOperative + 1 FacilityManager + 1 Guard
    expect(byValue.get('any-keycard')).toBe(7);
    expect(byValue.has('any-scp')).toBe(false); // no SCP items in this map
  });

  it('answers "where can a keycard spawn?"', () => {
    const keycards = referenceMap.spawns.filter((s) => itemMatches(s, 'any-keycard'));
    expect(keycards).toHaveLength(7);
    expect(keycards.every((s) => itemType(s)?.startsWith('Keycard'))).toBe(true);
    expect(referenceMap.spawns.filter((s) => itemMatches(s, 'KeycardScientist'))).toHaveLength(1);
  });

  it('splits structure spawn points into the types they accept', () => {
    const multi = referenceMap.spawns.find((s) => s.cat === 'Scp079Generator|ExperimentalWeaponLocker');
    expect(multi && structureTypes(multi)).toEqual(['Scp079Generator', 'ExperimentalWeaponLocker']);
    expect(multi && structureMatches(multi, 'ExperimentalWeaponLocker')).toBe(true);
    const opts = new Map(structureOptions(referenceMap.spawns).map((o) => [o.value, o.count]));
    expect(opts.get('all')).toBe(63);
    expect(opts.get('LargeGunLocker')).toBe(2);
  });

  it('never mixes kinds', () => {
    const item = referenceMap.spawns.find((s) => s.kind === 'item');
    const structure = referenceMap.spawns.find((s) => s.kind === 'structure');
    expect(item && structureMatches(item, 'all')).toBe(false);
    expect(structure && itemMatches(structure, 'all')).toBe(false);
  });
});
