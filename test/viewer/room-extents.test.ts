import { describe, expect, it } from 'vitest';
import { buildRooms } from '../../generator/build-rooms.ts';
import { drawFacility } from '../../generator/facility-draws.ts';
import { generateMap } from '../../generator/facility.ts';
import { placeFeatures } from '../../generator/place-features.ts';
import { parseMap } from '../../renderer/parse-map.ts';
import type { Door, MapData, Room } from '../../renderer/map-types.ts';
import { FLOORS } from '../../renderer/floors.ts';
import { roomKey } from '../../renderer/links.ts';
import { contains } from '../../renderer/box.ts';
import { buildScene, extentOf, roomAt } from '../../renderer/scene.ts';
import { referenceMap } from './fixture.ts';

const SEEDS = 200;
// Spread over the whole seed range, always the same ones.
const seeds = Array.from({ length: SEEDS }, (_, i) => 1 + ((i * 2654435761) % 2147483647));

/** Each door's true room, as the generator placed it: a room's doors are those its prefab adds. */
function trueDoorRooms(seed: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const placed of buildRooms(drawFacility(seed))) {
    for (const d of placeFeatures([placed]).doors) out.set(roomKey(d) + d.name, roomKey(placed.out));
  }
  return out;
}

interface Miss {
  seed: number;
  what: string;
}

function check(map: MapData, doorRooms: Map<string, string> | undefined): Miss[] {
  const misses: Miss[] = [];
  const miss = (what: string): void => void misses.push({ seed: map.seed, what });
  for (const f of FLOORS) {
    const scene = buildScene(map, f.id);
    const byKey = new Map(scene.rooms.map((r) => [roomKey(r), r]));
    for (const s of scene.spawns) {
      const owner = byKey.get(roomKey({ x: s.rx, y: scene.floorY, z: s.rz }));
      if (!owner) continue; // its room is on another floor's list (none in generated maps)
      if (!contains(extentOf(scene, owner)?.all, s.x, s.z))
        miss(`spawn ${s.cat} at ${s.x},${s.z} outside ${owner.name}`);
      if (scene.extents.spawnOwner.get(s) !== owner) miss(`spawn ${s.cat} not named as in ${owner.name}`);
    }
    for (const d of scene.doors) {
      const named = scene.extents.doorOwner.get(d);
      const truth = doorRooms ? byKey.get(doorRooms.get(roomKey(d) + d.name) ?? '') : named;
      if (!truth) {
        miss(`door ${d.name} at ${d.x},${d.z} has no room`);
        continue;
      }
      if (named !== truth) miss(`door ${d.name} named as in ${named?.name}, belongs to ${truth.name}`);
      if (!contains(extentOf(scene, truth)?.all, d.x, d.z))
        miss(`door ${d.name} at ${d.x},${d.z} outside ${truth.name}`);
    }
  }
  return misses;
}

describe('room extents hold what the map places in them', () => {
  it(`every spawn and door of ${SEEDS} generated seeds, on every floor, is inside its room`, () => {
    const started = performance.now();
    const misses: Miss[] = [];
    let doors = 0;
    for (const seed of seeds) {
      const map = parseMap(generateMap(seed));
      doors += map.doors.length;
      misses.push(...check(map, trueDoorRooms(seed)));
    }
    expect(misses.slice(0, 10)).toEqual([]);
    expect(doors).toBeGreaterThan(SEEDS * 10);
    // Reported, not asserted: the run time on this machine.
    console.info(`room extents: ${SEEDS} seeds checked in ${Math.round(performance.now() - started)} ms`);
  });

  it('holds for the real dump too, its connector doors included', () => {
    expect(check(referenceMap, undefined)).toEqual([]);
  });

  it('names the room of a door outside every cell: the SCP-106 gates', () => {
    const hcz = buildScene(referenceMap, 'hcz');
    const gate = hcz.doors.find((d: Door) => d.name === 'Hcz106Secondary');
    expect(gate && hcz.extents.doorOwner.get(gate)?.name).toBe('Hcz106');
    const room = roomAt(hcz, gate?.x ?? 0, gate?.z ?? 0) as Room;
    expect(room).toBeDefined();
  });
});
