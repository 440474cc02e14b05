import type { Zone } from './map-types.ts';
import type { ItemCategory } from './spawn-kinds.ts';

// Colours are chosen for a dark page (#101418): every fill keeps at least 3:1 against it and the
// labels are white on a dark halo, which reads on any zone colour.

export const BACKGROUND = '#101418';
export const GRID = 'rgba(255,255,255,0.04)';
export const OUTLINE = '#05070a';

export const ZONE_FILL: Readonly<Record<Zone, string>> = {
  LightContainment: '#d9bd5c',
  HeavyContainment: '#cf6a5f',
  Entrance: '#6ea6dc',
  Surface: '#79c07c',
  Other: '#a591d6',
};

/** Named rooms are drawn a little lighter than the corridors of their zone. */
export const ZONE_BODY: Readonly<Record<Zone, string>> = {
  LightContainment: '#f0dc8e',
  HeavyContainment: '#eb9489',
  Entrance: '#a3c9ee',
  Surface: '#a6dba8',
  Other: '#c7b9ec',
};

export const ZONE_CELL: Readonly<Record<Zone, string>> = {
  LightContainment: 'rgba(217,189,92,0.10)',
  HeavyContainment: 'rgba(207,106,95,0.10)',
  Entrance: 'rgba(110,166,220,0.10)',
  Surface: 'rgba(121,192,124,0.10)',
  Other: 'rgba(165,145,214,0.10)',
};

export const DOOR = '#f4f4f4';
export const CHECKPOINT_DOOR = '#ffd23f';
export const TESLA = '#5ef0ff';
export const STRUCTURE = '#c49bff';
export const ITEM = '#ffffff';
/** Item badges by category: distinct hues, each light enough for a dark glyph on it. */
export const ITEM_CATEGORY: Readonly<Record<ItemCategory, string>> = {
  weapon: '#ff7b7b',
  ammo: '#e3c56b',
  medical: '#6ee88f',
  keycard: '#ffd23f',
  armour: '#8fbcff',
  grenade: '#ffa24d',
  scp: '#ff8fd0',
  other: '#f4f4f4',
};
export const MATCH = '#39ff88';
export const ELEVATOR = '#ffffff';
export const LINK = '#ffd23f';
export const HOVER = '#ffffff';
/** The route: a hot pink no zone, symbol or match uses. */
export const ROUTE = '#ff4fa3';
export const LABEL = '#ffffff';
export const LABEL_HALO = 'rgba(0,0,0,0.85)';
