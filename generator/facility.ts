// generateMap(seed): the whole facility as the game builds it from one System.Random(seed): its
// draws (facility-draws.ts), the rooms they make (build-rooms.ts), then their features.

import { drawFacility } from './facility-draws.ts';
import { buildRooms, type BuildOptions } from './build-rooms.ts';
import { placeFeatures } from './place-features.ts';
import type { FacilityMap } from './map-schema.ts';
import { SEED_MAX, SEED_MIN } from '../store/constants.ts';

/** Seeds the game uses (facility.md section 8) are the spec's seed range. */
export function isValidSeed(seed: unknown): seed is number {
  return Number.isInteger(seed) && (seed as number) >= SEED_MIN && (seed as number) <= SEED_MAX;
}

/**
 * The map of one seed as the game builds it. `options.links: false` leaves the checkpoint and elevator
 * links out of `conn` (the public dump of seed 224593721 lists door neighbours only).
 */
export function generateMap(seed: number, options: BuildOptions = {}): FacilityMap {
  if (!isValidSeed(seed)) throw new RangeError(`seed must be an integer in 1..2147483647, got ${seed}`);
  const draws = drawFacility(seed);
  const rooms = buildRooms(draws, options);
  const { spawns, doors, teslas } = placeFeatures(rooms);
  const layouts = {
    LightContainment: draws.lcz.layout.index + 1,
    HeavyContainment: draws.hcz.layout.index + 1,
    Entrance: draws.ez.layout.index + 1,
  };
  return { seed, rooms: rooms.map((r) => r.out), markers: [], spawns, doors, teslas, layouts };
}
