import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DOOR_NAMES,
  ITEM_NAMES,
  STRUCTURE_NAMES,
  doorName,
  itemName,
  structureName,
} from '../../renderer/names.ts';
import { itemOptions, structureOptions } from '../../renderer/spawn-filter.ts';
import { referenceMap } from './fixture.ts';

interface Tables {
  prefabs: Record<string, { spawns: { kind: string; cat: string }[]; doors: { name: string }[] }>;
}

// Everything the generator places comes from its per-prefab tables, so their codes are all it emits.
const tables = JSON.parse(
  readFileSync(new URL('../../generator/data/prefab-features.json', import.meta.url), 'utf8'),
) as Tables;
const spawns = Object.values(tables.prefabs).flatMap((p) => p.spawns);
const itemCodes = new Set(spawns.filter((s) => s.kind === 'item').map((s) => s.cat.replace(/^item:/, '')));
const structureCodes = new Set(spawns.filter((s) => s.kind === 'structure').flatMap((s) => s.cat.split('|')));
const doorCodes = new Set(Object.values(tables.prefabs).flatMap((p) => p.doors.map((d) => d.name)));

describe('names players use', () => {
  it('names every item, structure and door code the generator emits', () => {
    expect(itemCodes.size).toBeGreaterThan(20);
    expect([...itemCodes].filter((c) => !(c in ITEM_NAMES))).toEqual([]);
    expect([...structureCodes].filter((c) => !(c in STRUCTURE_NAMES))).toEqual([]);
    expect([...doorCodes].filter((c) => !(c in DOOR_NAMES))).toEqual([]);
    // The dump has connector doors and codes of its own.
    expect(referenceMap.doors.filter((d) => !(d.name in DOOR_NAMES))).toEqual([]);
  });

  it('uses the in-game names', () => {
    expect(itemName('MicroHID')).toBe('Micro-HID');
    expect(itemName('GunCOM15')).toBe('COM-15');
    expect(itemName('Ammo556x45')).toBe('5.56×45 mm ammo');
    expect(structureName('Scp079Generator')).toBe('SCP-079 generator');
    expect(itemName('group')).toBe('Random group');
    expect(itemName('random')).toBe('Random item');
    expect(doorName('Hcz106Primiary')).toBe('SCP-106 primary gate');
  });

  it('shows an unknown code as itself, never hidden', () => {
    expect(itemName('GunNewThing')).toBe('GunNewThing');
    expect(structureName('NewLocker')).toBe('NewLocker');
    expect(doorName('SomeNewGate')).toBe('SomeNewGate');
  });

  it('labels the filter choices by name and keeps the codes as values', () => {
    const items = itemOptions(referenceMap.spawns);
    expect(items.find((o) => o.value === 'KeycardScientist')?.label).toBe('Scientist keycard');
    const structures = structureOptions(referenceMap.spawns);
    expect(structures.find((o) => o.value === 'Scp079Generator')?.label).toBe('SCP-079 generator');
  });
});
