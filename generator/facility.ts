// generateMap(seed): the whole facility as the game builds it from one System.Random(seed).

import { DotnetRandom } from './dotnet-random.ts';
import { LAYOUTS, type Layout } from './layouts.ts';
import { EZ_TEMPLATES, HCZ_TEMPLATES, LCZ_TEMPLATES } from './data/room-templates.ts';
import { generateZone, zoneSetup, type ZoneDraw } from './zone-generator.ts';
import { buildRooms, type BuildOptions } from './build-rooms.ts';
import { placeFeatures } from './place-features.ts';
import type { FacilityMap } from './map-schema.ts';
import { GRID } from './local-frame.ts';
import { SEED_MAX, SEED_MIN } from '../store/constants.ts';

const LCZ = zoneSetup(LCZ_TEMPLATES, LAYOUTS.L);
const HCZ = zoneSetup(HCZ_TEMPLATES, LAYOUTS.H);
const EZ = zoneSetup(EZ_TEMPLATES, LAYOUTS.E);

/** Where the Entrance template lands: its checkpoint midpoint 15 m east of HCZ's (z aligned). */
const EZ_HARD_OFFSET_X = 15;

export interface FacilityDraws {
  readonly lcz: ZoneDraw;
  readonly hcz: ZoneDraw;
  readonly ez: ZoneDraw;
  /** Translation of the Entrance template cells, in metres. */
  readonly ezOffset: { readonly x: number; readonly z: number };
}

function checkpointMidpoint(layout: Layout): { x: number; z: number } {
  const [a, b] = layout.checkpoints.map((i) => layout.cells[i]!);
  if (!a || !b) throw new Error(`layout ${layout.zone}${layout.index} needs two checkpoint cells`);
  return { x: ((a.cx + b.cx) * GRID) / 2, z: ((a.cz + b.cz) * GRID) / 2 };
}

/** All random decisions of one seed, in the game's order LCZ -> HCZ -> EZ. */
export function drawFacility(seed: number): FacilityDraws {
  const rng = new DotnetRandom(seed);
  const lcz = generateZone(rng, LCZ);
  const hcz = generateZone(rng, HCZ);
  let ezOffset = { x: 0, z: 0 };
  const ez = generateZone(rng, EZ, (layout) => {
    const h = checkpointMidpoint(hcz.layout);
    const e = checkpointMidpoint(layout);
    ezOffset = { x: h.x - e.x + EZ_HARD_OFFSET_X, z: h.z - e.z };
  });
  return { lcz, hcz, ez, ezOffset };
}

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
