import type { Spawn } from './map-types.ts';
import { itemName, structureName } from './names.ts';

// Filters for spawn points. The choices are derived from the map's own `cat` values so new item or
// structure types appear without a viewer update.

export const ALL = 'all';

export interface FilterOption {
  value: string;
  label: string;
  count: number;
}

// Families of item types, offered only when the map has at least one member.
export const ITEM_GROUPS: readonly { value: string; label: string; test: (type: string) => boolean }[] = [
  { value: 'any-keycard', label: 'Any keycard', test: (t) => t.startsWith('Keycard') },
  { value: 'any-gun', label: 'Any gun', test: (t) => t.startsWith('Gun') },
  { value: 'any-ammo', label: 'Any ammo', test: (t) => t.startsWith('Ammo') },
  { value: 'any-scp', label: 'Any SCP item', test: (t) => /^(Anti)?SCP/i.test(t) },
];

/** The item type of an item spawn ("item:KeycardScientist" → "KeycardScientist"). */
export function itemType(spawn: Spawn): string | undefined {
  if (spawn.kind !== 'item') return undefined;
  return spawn.cat.startsWith('item:') ? spawn.cat.slice(5) : spawn.cat;
}

/** Structure types a structure spawn point accepts. */
export function structureTypes(spawn: Spawn): string[] {
  if (spawn.kind !== 'structure') return [];
  return spawn.cat.split('|').filter(Boolean);
}

function countOptions(counts: Map<string, number>, name: (code: string) => string): FilterOption[] {
  return [...counts.entries()]
    .map(([value, count]) => ({ value, label: name(value), count }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

export function itemOptions(spawns: readonly Spawn[]): FilterOption[] {
  const counts = new Map<string, number>();
  for (const s of spawns) {
    const t = itemType(s);
    if (t) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  const groups: FilterOption[] = [];
  for (const g of ITEM_GROUPS) {
    let count = 0;
    for (const [t, n] of counts) if (g.test(t)) count += n;
    if (count > 0) groups.push({ value: g.value, label: g.label, count });
  }
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  return [{ value: ALL, label: 'All items', count: total }, ...groups, ...countOptions(counts, itemName)];
}

export function structureOptions(spawns: readonly Spawn[]): FilterOption[] {
  const counts = new Map<string, number>();
  let total = 0;
  for (const s of spawns) {
    if (s.kind !== 'structure') continue;
    total++;
    for (const t of structureTypes(s)) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  return [{ value: ALL, label: 'All structures', count: total }, ...countOptions(counts, structureName)];
}

export function itemMatches(spawn: Spawn, filter: string): boolean {
  const t = itemType(spawn);
  if (t === undefined) return false;
  if (filter === ALL) return true;
  const group = ITEM_GROUPS.find((g) => g.value === filter);
  return group ? group.test(t) : t === filter;
}

export function structureMatches(spawn: Spawn, filter: string): boolean {
  if (spawn.kind !== 'structure') return false;
  return filter === ALL || structureTypes(spawn).includes(filter);
}
