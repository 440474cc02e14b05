// Room templates (the game's "spawnable rooms") per atlas zone, in the game's fixed candidate order
// (facility.md sections 3 and 8). The order matters: candidates are walked in it for min counts and for
// the cumulative weighted draw.

import type { RoomShape } from '../map-schema.ts';

export interface RoomTemplate {
  /** Prefab name; instances are called "<prefab>(Clone)". */
  readonly prefab: string;
  /** RoomName enum value as the game names the room. */
  readonly name: string;
  readonly shape: RoomShape;
  readonly min: number;
  readonly max: number;
  /** Selection weight (ChanceMultiplier). */
  readonly chance: number;
  /** Weight factor per already placed copy in one of the 4 neighbouring cells. */
  readonly adjacency: number;
  /** Only goes into pinned template cells that name it (Class-D spawn, HCZ/EZ checkpoint parts). */
  readonly special: boolean;
}

type Row = [prefab: string, name: string, shape: RoomShape, min: number, max: number, chance: number];

function rows(list: Row[], special: readonly string[]): readonly RoomTemplate[] {
  return list.map(([prefab, name, shape, min, max, chance]) => ({
    prefab,
    name,
    shape,
    min,
    max,
    chance,
    // Tesla rooms may never touch each other; every other template only gets rarer next to itself.
    adjacency: prefab === 'HCZ_Tesla_Rework' ? 0 : 0.1,
    special: special.includes(prefab),
  }));
}

export const LCZ_TEMPLATES = rows(
  [
    ['LCZ_ClassDSpawn', 'LczClassDSpawn', 'Endroom', 1, 1, 1],
    ['LCZ_Cafe', 'LczComputerRoom', 'Endroom', 1, 1, 1],
    ['LCZ_ChkpA', 'LczCheckpointA', 'Endroom', 1, 1, 1],
    ['LCZ_ChkpB', 'LczCheckpointB', 'Endroom', 1, 1, 1],
    ['LCZ_Toilets', 'LczToilets', 'Straight', 1, 1, 1],
    ['LCZ_Armory', 'LczArmory', 'Endroom', 1, 1, 1],
    ['LCZ_173', 'Lcz173', 'Endroom', 1, 1, 1],
    ['LCZ_372', 'LczGlassroom', 'Endroom', 1, 1, 1],
    ['LCZ_914', 'Lcz914', 'Endroom', 1, 1, 1],
    ['LCZ_330', 'Lcz330', 'Endroom', 1, 1, 1],
    ['LCZ_Plants', 'LczGreenhouse', 'Straight', 0, 1, 100],
    ['LCZ_Airlock', 'LczAirlock', 'Straight', 1, 2, 100],
    ['LCZ_Crossing', 'Unnamed', 'XShape', 0, 15, 1],
    ['LCZ_TCross', 'Unnamed', 'TShape', 0, 15, 1],
    ['LCZ_Straight', 'Unnamed', 'Straight', 0, 15, 0.1],
    ['LCZ_Curve', 'Unnamed', 'Curve', 0, 15, 1],
  ],
  ['LCZ_ClassDSpawn'],
);

export const HCZ_TEMPLATES = rows(
  [
    ['HCZ_049', 'Hcz049', 'Straight', 1, 1, 1],
    ['HCZ_079', 'Hcz079', 'Endroom', 1, 1, 1],
    ['HCZ_096', 'Hcz096', 'Endroom', 1, 1, 1],
    ['HCZ_106_Rework', 'Hcz106', 'Endroom', 1, 1, 1],
    ['HCZ_939', 'Hcz939', 'Curve', 1, 1, 1],
    ['HCZ_ChkpA', 'HczCheckpointA', 'Endroom', 1, 1, 1],
    ['HCZ_ChkpB', 'HczCheckpointB', 'Endroom', 1, 1, 1],
    ['HCZ_Corner_Deep', 'Unnamed', 'Curve', 0, 10, 1],
    ['HCZ_Crossing', 'Unnamed', 'XShape', 0, 10, 1],
    ['HCZ_Crossroom_Water', 'HczAcroamaticAbatement', 'XShape', 1, 1, 1],
    ['HCZ_Curve', 'Unnamed', 'Curve', 0, 10, 0.1],
    ['HCZ_127', 'Hcz127', 'TShape', 1, 1, 1],
    ['HCZ_ServerRoom', 'HczServers', 'Straight', 1, 1, 1],
    ['HCZ_Intersection', 'Unnamed', 'TShape', 0, 15, 1],
    ['HCZ_Intersection_Junk', 'Unnamed', 'TShape', 0, 1, 100],
    ['HCZ_MicroHID_New', 'HczMicroHID', 'Straight', 1, 1, 1],
    ['HCZ_Nuke', 'HczWarhead', 'TShape', 1, 1, 1],
    ['HCZ_Straight', 'Unnamed', 'Straight', 0, 10, 1],
    ['HCZ_Straight_C', 'Unnamed', 'Straight', 0, 1, 5],
    ['HCZ_Straight_PipeRoom', 'Unnamed', 'Straight', 0, 1, 100],
    ['HCZ_TArmory', 'HczArmory', 'TShape', 1, 1, 1],
    ['HCZ_Tesla_Rework', 'HczTesla', 'Straight', 1, 3, 2],
    ['HCZ_Testroom', 'HczTestroom', 'Straight', 1, 1, 1],
    ['HCZ_EZ_Checkpoint Part', 'HczCheckpointToEntranceZone', 'Straight', 2, 2, 1],
    ['HCZ_IncineratorWayside', 'HczWaysideIncinerator', 'Curve', 1, 1, 1],
    ['HCZ_Intersection_Ramp', 'HczRampTunnel', 'TShape', 1, 1, 100],
  ],
  ['HCZ_EZ_Checkpoint Part'],
);

export const EZ_TEMPLATES = rows(
  [
    ['EZ_Cafeteria', 'Unnamed', 'Straight', 0, 1, 1],
    ['EZ_Chef', 'Unnamed', 'Straight', 1, 1, 10],
    ['EZ_CollapsedTunnel', 'EzCollapsedTunnel', 'Endroom', 0, 10, 1],
    ['EZ_Crossing', 'Unnamed', 'XShape', 0, 15, 1],
    ['EZ_Curve', 'Unnamed', 'Curve', 0, 15, 1],
    ['EZ_Endoof', 'EzRedroom', 'Endroom', 0, 10, 1],
    ['EZ_GateA', 'EzGateA', 'Endroom', 1, 1, 1],
    ['EZ_GateB', 'EzGateB', 'Endroom', 1, 1, 1],
    ['EZ_HCZ_Checkpoint Part', 'HczCheckpointToEntranceZone', 'Straight', 2, 2, 1],
    ['EZ_Intercom', 'EzIntercom', 'Curve', 1, 1, 1],
    ['EZ_PCs', 'EzOfficeLarge', 'Straight', 1, 1, 1],
    ['EZ_PCs_small', 'EzOfficeSmall', 'Straight', 1, 1, 100],
    ['EZ_Shelter', 'EzEvacShelter', 'Endroom', 1, 1, 1],
    ['EZ_Smallrooms1', 'Unnamed', 'Straight', 0, 1, 100],
    ['EZ_Smallrooms2', 'Unnamed', 'Straight', 1, 1, 100],
    ['EZ_Straight', 'Unnamed', 'Straight', 0, 10, 0.05],
    ['EZ_StraightColumn', 'Unnamed', 'Straight', 0, 10, 0.05],
    ['EZ_ThreeWay', 'Unnamed', 'TShape', 0, 15, 1],
    ['EZ_upstairs', 'EzOfficeStoried', 'Straight', 1, 1, 1],
  ],
  ['EZ_HCZ_Checkpoint Part'],
);
