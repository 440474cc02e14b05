import { describe, expect, it } from 'vitest';
import type { Shape, Zone } from '../../renderer/map-types.ts';
import { checkpointSplit, describeRoom, prefabName, roomLabel, zoneLabel } from '../../renderer/labels.ts';
import { referenceMap } from './fixture.ts';

const r = (
  name: string,
  variant: string | null = null,
  zone: Zone = 'HeavyContainment',
  shape: Shape = 'Straight',
) => ({
  name,
  variant,
  zone,
  z: 0,
  shape,
});

describe('room labels', () => {
  it('maps RoomName values to friendly names', () => {
    expect(roomLabel(r('Lcz914'))?.full).toBe('SCP-914');
    expect(roomLabel(r('LczArmory'))?.full).toBe('LCZ Armory');
    expect(roomLabel(r('HczArmory'))?.full).toBe('HCZ Armory');
    expect(roomLabel(r('EzGateA'))?.short).toBe('Gate A');
    expect(roomLabel(r('LczComputerRoom'))?.full).toBe('PC-15 (Cafe)');
    expect(roomLabel(r('HczAcroamaticAbatement'))?.full).toBe('Waterfall');
  });

  it('labels a few Unnamed prefabs by variant and leaves plain fillers unlabelled', () => {
    expect(roomLabel(r('Unnamed', 'EZ_Chef(Clone)'))?.short).toBe('Chef');
    expect(roomLabel(r('Unnamed', 'HCZ_Curve(Clone)'))).toBeUndefined();
    expect(roomLabel(r('Unnamed', null))).toBeUndefined();
  });

  it('describes fillers by zone and shape', () => {
    expect(describeRoom(r('Unnamed', 'LCZ_Curve(Clone)', 'LightContainment', 'Curve'))).toBe(
      'Light Containment corner',
    );
    expect(describeRoom(r('Lcz914', 'LCZ_914(Clone)', 'LightContainment', 'Endroom'))).toBe('SCP-914');
    expect(describeRoom(r('Unnamed', 'HCZ_Straight_PipeRoom(Clone)'))).toBe('Pipe room (Heavy Containment)');
  });

  it('strips the Unity clone suffix from variants', () => {
    expect(prefabName('HCZ_EZ_Checkpoint Part(Clone)')).toBe('HCZ_EZ_Checkpoint Part');
    expect(prefabName(null)).toBeUndefined();
    expect(zoneLabel('Entrance')).toBe('Entrance');
  });

  it('tells checkpoint A (north, larger z) from B, on both sides of the zone border', () => {
    const split = checkpointSplit(referenceMap.rooms);
    expect(split).toBe(75);
    const halves = referenceMap.rooms.filter((x) => x.name === 'HczCheckpointToEntranceZone');
    const labels = halves.map((x) => `${x.z}:${roomLabel(x, split)?.full}`).sort();
    expect(labels).toEqual([
      '105:EZ–HCZ Checkpoint A',
      '105:HCZ–EZ Checkpoint A',
      '45:EZ–HCZ Checkpoint B',
      '45:HCZ–EZ Checkpoint B',
    ]);
  });

  it('has a label for every named room of the reference map', () => {
    const named = referenceMap.rooms.filter((x) => x.name !== 'Unnamed');
    expect(named.filter((x) => !roomLabel(x, 75)).map((x) => x.name)).toEqual([]);
  });
});
