import { describe, expect, it } from 'vitest';
import type { Room } from '../../renderer/map-types.ts';
import { directionTo, normalizeRotation, openings, rotateDir } from '../../renderer/shapes.ts';
import { referenceMap } from './fixture.ts';

const room = (
  shape: Room['shape'],
  rotY: Room['rotY'],
  zone: Room['zone'] = 'HeavyContainment',
  name = 'Unnamed',
) => ({
  name,
  zone,
  shape,
  rotY,
});

describe('rotateDir', () => {
  it('turns clockwise seen from above: W→N, N→E, E→S, S→W per +90', () => {
    expect(rotateDir('W', 90)).toBe('N');
    expect(rotateDir('N', 90)).toBe('E');
    expect(rotateDir('E', 90)).toBe('S');
    expect(rotateDir('S', 90)).toBe('W');
    expect(rotateDir('W', 270)).toBe('S');
    expect(rotateDir('N', 360)).toBe('N');
  });

  it('snaps odd angles to the 90° grid', () => {
    expect(normalizeRotation(-90)).toBe(270);
    expect(normalizeRotation(89.6)).toBe(90);
    expect(normalizeRotation(450)).toBe(90);
  });
});

describe('openings per shape and rotY (facility.md part 2 table)', () => {
  it.each([
    ['Endroom', 0, ['W']],
    ['Endroom', 90, ['N']],
    ['Endroom', 180, ['E']],
    ['Endroom', 270, ['S']],
    ['Straight', 0, ['E', 'W']],
    ['Straight', 180, ['E', 'W']],
    ['Straight', 90, ['N', 'S']],
    ['Straight', 270, ['N', 'S']],
    ['Curve', 0, ['E', 'S']],
    ['Curve', 90, ['S', 'W']],
    ['Curve', 180, ['N', 'W']],
    ['Curve', 270, ['N', 'E']],
    ['TShape', 0, ['N', 'S', 'W']],
    ['TShape', 90, ['N', 'E', 'W']],
    ['TShape', 180, ['N', 'E', 'S']],
    ['TShape', 270, ['E', 'S', 'W']],
    ['XShape', 90, ['N', 'E', 'S', 'W']],
    ['Undefined', 0, []],
  ] as const)('%s at %i opens %j', (shape, rot, dirs) => {
    expect(openings(room(shape, rot))).toEqual(
      [...dirs].sort((a, b) => 'NESW'.indexOf(a) - 'NESW'.indexOf(b)),
    );
  });

  it('turns Entrance prefabs by 90°: an EZ Endroom at rotY 0 opens N and an EZ Straight runs N-S', () => {
    expect(openings(room('Endroom', 0, 'Entrance'))).toEqual(['N']);
    expect(openings(room('Straight', 0, 'Entrance'))).toEqual(['N', 'S']);
  });

  it('opens the Class-D spawn east at rotation 0', () => {
    expect(openings(room('Endroom', 0, 'LightContainment', 'LczClassDSpawn'))).toEqual(['E']);
  });
});

describe('openings against the reference map', () => {
  const isCheckpointHalf = (r: Room) => r.name === 'HczCheckpointToEntranceZone';

  it('match the same-floor neighbours of every room except the zone-checkpoint halves', () => {
    const mismatched = referenceMap.rooms.filter((r) => {
      const fromConn = r.conn.map((c) => directionTo(r, c)).sort();
      return JSON.stringify([...openings(r)].sort()) !== JSON.stringify(fromConn);
    });
    expect(referenceMap.rooms).toHaveLength(104);
    expect(mismatched.every(isCheckpointHalf)).toBe(true);
    expect(mismatched).toHaveLength(4);
  });

  it('gives the checkpoint halves their cross-zone side as well', () => {
    for (const r of referenceMap.rooms.filter(isCheckpointHalf)) {
      expect(openings(r)).toEqual(['E', 'W']);
      const side = r.zone === 'Entrance' ? 'W' : 'E';
      expect(r.conn.map((c) => directionTo(r, c))).not.toContain(side);
    }
  });
});

describe('directionTo', () => {
  it('names the edge toward an adjacent cell and nothing for distant ones', () => {
    expect(directionTo({ x: 30, z: 30 }, { x: 30, z: 45 })).toBe('N');
    expect(directionTo({ x: 30, z: 30 }, { x: 45, z: 30 })).toBe('E');
    expect(directionTo({ x: 30, z: 30 }, { x: 30, z: 15 })).toBe('S');
    expect(directionTo({ x: 30, z: 30 }, { x: 15, z: 30 })).toBe('W');
    expect(directionTo({ x: 30, z: 30 }, { x: 60, z: 30 })).toBeUndefined();
  });
});
