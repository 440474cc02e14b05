import type { Room, Zone } from './map-types.ts';

// Friendly names for the game's RoomName values and for the few Unnamed prefabs players know by
// name. `short` is what fits inside a 15 m cell on the map; `full` goes to the info panel and the
// text summary.

export interface RoomLabel {
  short: string;
  full: string;
}

const BY_NAME: Readonly<Record<string, RoomLabel>> = {
  LczClassDSpawn: { short: 'Class-D', full: 'Class-D Cells' },
  LczComputerRoom: { short: 'PC-15', full: 'PC-15 (Cafe)' },
  LczCheckpointA: { short: 'Chkp A', full: 'LCZ Checkpoint A' },
  LczCheckpointB: { short: 'Chkp B', full: 'LCZ Checkpoint B' },
  LczToilets: { short: 'WC', full: 'Toilets (WC)' },
  LczArmory: { short: 'Armory', full: 'LCZ Armory' },
  Lcz173: { short: '173', full: 'SCP-173 Chamber' },
  LczGlassroom: { short: 'GR-18', full: 'GR-18 (SCP-372)' },
  Lcz330: { short: '330', full: 'SCP-330' },
  Lcz914: { short: '914', full: 'SCP-914' },
  LczGreenhouse: { short: 'VT-00', full: 'Greenhouse (VT-00)' },
  LczAirlock: { short: 'Airlock', full: 'Airlock' },
  HczCheckpointA: { short: 'Elev A', full: 'HCZ Elevator A' },
  HczCheckpointB: { short: 'Elev B', full: 'HCZ Elevator B' },
  HczWarhead: { short: 'Warhead', full: 'Alpha Warhead' },
  Hcz049: { short: '049', full: 'SCP-049' },
  Hcz079: { short: '079', full: 'SCP-079' },
  Hcz096: { short: '096', full: 'SCP-096' },
  Hcz106: { short: '106', full: 'SCP-106' },
  Hcz939: { short: '939', full: 'SCP-939' },
  Hcz127: { short: '127', full: 'SCP-127' },
  HczMicroHID: { short: 'Micro', full: 'Micro-HID' },
  HczArmory: { short: 'Armory', full: 'HCZ Armory' },
  HczServers: { short: 'Servers', full: 'Server Room' },
  HczTesla: { short: 'Tesla', full: 'Tesla Gate' },
  HczTestroom: { short: 'Test', full: 'Test Room' },
  HczAcroamaticAbatement: { short: 'Waterfall', full: 'Waterfall' },
  HczWaysideIncinerator: { short: 'Furnace', full: 'Furnace' },
  HczRampTunnel: { short: 'Ramp', full: 'Ramp Tunnel' },
  EzGateA: { short: 'Gate A', full: 'Gate A' },
  EzGateB: { short: 'Gate B', full: 'Gate B' },
  EzEvacShelter: { short: 'Shelter', full: 'Evacuation Shelter' },
  EzIntercom: { short: 'Intercom', full: 'Intercom' },
  EzCollapsedTunnel: { short: 'Collapsed', full: 'Collapsed Tunnel' },
  EzRedroom: { short: 'Red Room', full: 'Red Room' },
  EzOfficeStoried: { short: 'Upstairs', full: 'Upstairs Office' },
  EzOfficeLarge: { short: 'PCs', full: 'PC Office' },
  EzOfficeSmall: { short: 'Office', full: 'Downstairs Office' },
  Outside: { short: 'Surface', full: 'Surface' },
  Pocket: { short: 'Pocket', full: 'Pocket Dimension' },
};

/** Every room name players know (for naming a room a seed lacks). */
export const knownRoomLabels = (): RoomLabel[] => [...Object.values(BY_NAME), ...Object.values(BY_PREFAB)];

// Unnamed rooms that still have a name among players, keyed by prefab.
const BY_PREFAB: Readonly<Record<string, RoomLabel>> = {
  EZ_Chef: { short: 'Chef', full: "Chef's Office" },
  EZ_Smallrooms1: { short: 'Conf.', full: 'Conference Room' },
  EZ_Smallrooms2: { short: 'Dr. L', full: "Dr. L's Office / Conference 9B" },
  EZ_Cafeteria: { short: 'Cafeteria', full: 'Cafeteria' },
};

// Filler prefabs with a look of their own: named in the info panel only, not on the map.
const FILLER_NAMES: Readonly<Record<string, string>> = {
  HCZ_Straight_PipeRoom: 'Pipe room',
  HCZ_Straight_C: 'Corridor with side room',
  HCZ_Intersection_Junk: 'Junk intersection',
  HCZ_Corner_Deep: 'Deep corner',
  EZ_StraightColumn: 'Column corridor',
};

const ZONE_LABEL: Readonly<Record<Zone, string>> = {
  LightContainment: 'Light Containment',
  HeavyContainment: 'Heavy Containment',
  Entrance: 'Entrance',
  Surface: 'Surface',
  Other: 'Other',
};

/** The abbreviations players use for the three zones with a layout. */
export const ZONE_SHORT: Readonly<Partial<Record<Zone, string>>> = {
  LightContainment: 'LCZ',
  HeavyContainment: 'HCZ',
  Entrance: 'EZ',
};

const SHAPE_LABEL: Readonly<Record<string, string>> = {
  Straight: 'corridor',
  Curve: 'corner',
  TShape: 'T-junction',
  XShape: 'crossing',
  Endroom: 'dead end',
  Undefined: 'area',
};

/** Prefab name without Unity's "(Clone)" suffix. */
export function prefabName(variant: string | null): string | undefined {
  if (!variant) return undefined;
  const name = variant.replace(/\(Clone\)\s*$/, '').trim();
  return name || undefined;
}

export function zoneLabel(zone: Zone): string {
  return ZONE_LABEL[zone];
}

/**
 * Label for named rooms; undefined for plain fillers. Checkpoints between Heavy Containment and
 * Entrance share one RoomName; the game calls the one further north (larger z) A.
 */
export function roomLabel(
  room: Pick<Room, 'name' | 'variant' | 'zone' | 'z'>,
  checkpointSplitZ?: number,
): RoomLabel | undefined {
  if (room.name === 'HczCheckpointToEntranceZone') {
    const letter = checkpointSplitZ === undefined ? '' : room.z > checkpointSplitZ ? ' A' : ' B';
    const sides = room.zone === 'Entrance' ? 'EZ–HCZ' : 'HCZ–EZ';
    return { short: `Chkp${letter}`, full: `${sides} Checkpoint${letter}` };
  }
  const byName = BY_NAME[room.name];
  if (byName) return byName;
  const prefab = prefabName(room.variant);
  return prefab ? BY_PREFAB[prefab] : undefined;
}

/** Always a readable description, for hover and the text summary. */
export function describeRoom(
  room: Pick<Room, 'name' | 'variant' | 'zone' | 'z' | 'shape'>,
  checkpointSplitZ?: number,
): string {
  const label = roomLabel(room, checkpointSplitZ);
  if (label) return label.full;
  const filler = FILLER_NAMES[prefabName(room.variant) ?? ''];
  if (filler) return `${filler} (${zoneLabel(room.zone)})`;
  const shape = SHAPE_LABEL[room.shape] ?? room.shape;
  return `${zoneLabel(room.zone)} ${shape}`;
}

/** Midpoint between the two Heavy–Entrance checkpoint rows, to tell A from B. */
export function checkpointSplit(rooms: readonly Pick<Room, 'name' | 'z'>[]): number | undefined {
  const zs = rooms.filter((r) => r.name === 'HczCheckpointToEntranceZone').map((r) => r.z);
  if (zs.length < 2) return undefined;
  return (Math.min(...zs) + Math.max(...zs)) / 2;
}
