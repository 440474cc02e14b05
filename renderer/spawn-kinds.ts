import type { Spawn } from './map-types.ts';
import { itemType } from './spawn-filter.ts';

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
  other: 'Other',
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
