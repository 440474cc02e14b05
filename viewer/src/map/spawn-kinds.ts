import type { Spawn } from '../api/types.ts';
import { structureName } from './names.ts';
import { itemType, structureTypes } from './spawn-filter.ts';

// What a spawn point is to a player: an item's category (each drawn with its own symbol), and what
// a structure may hold where the reference facts say so (facility.md part 7), "unknown" where not.

export const ITEM_CATEGORIES = [
  'weapon',
  'ammo',
  'medical',
  'keycard',
  'armour',
  'grenade',
  'scp',
  'other',
] as const;
export type ItemCategory = (typeof ITEM_CATEGORIES)[number];

export const CATEGORY_LABEL: Readonly<Record<ItemCategory, string>> = {
  weapon: 'Weapon',
  ammo: 'Ammo',
  medical: 'Medical',
  keycard: 'Keycard or pass',
  armour: 'Armour',
  grenade: 'Grenade',
  scp: 'SCP item',
  other: 'Other item (or a random pick)',
};

const BY_PATTERN: readonly [RegExp, ItemCategory][] = [
  [/^(Anti)?SCP/i, 'scp'],
  [/^(Gun|Jailbird$|ParticleDisruptor$|MicroHID$)/, 'weapon'],
  [/^Ammo/, 'ammo'],
  [/^(Medkit|Adrenaline|Painkillers)$/, 'medical'],
  [/^(Keycard|SurfaceAccessPass$)/, 'keycard'],
  [/^Armor/, 'armour'],
  [/^Grenade/, 'grenade'],
];

/** The category of an item type ("GunCOM15" → weapon); picks and unknown types are "other". */
export function categoryOf(type: string): ItemCategory {
  return BY_PATTERN.find(([re]) => re.test(type))?.[1] ?? 'other';
}

export const spawnCategory = (s: Spawn): ItemCategory => categoryOf(itemType(s) ?? '');

// What each structure type may hold, from the reference facts; absent: the facts do not say.
const HOLDS: Readonly<Record<string, string>> = {
  LargeGunLocker: 'weapons: a Type 21 weapon locker or an MTF-E11-SR rack',
  SmallWallCabinet: 'a medkit or adrenaline, likely',
  ScpPedestal:
    'one SCP item: SCP-500, SCP-207, Anti-SCP-207, SCP-268, SCP-018, SCP-1576, SCP-244, SCP-2176, SCP-1853, SCP-1344 or SCP-1509',
};

/** A structure type with what it may hold: "Wall cabinet (may hold a medkit or adrenaline, likely)". */
export function structureWithContents(type: string): string {
  const holds = HOLDS[type];
  return `${structureName(type)} (${holds ? `may hold ${holds}` : 'what it may hold: unknown'})`;
}

/** Every type a structure spawn point accepts, each with what it may hold. */
export const structureContents = (s: Spawn): string =>
  structureTypes(s).map(structureWithContents).join(' or ');
