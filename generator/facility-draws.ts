// drawFacility(seed): every random decision of one seed, as the game draws them from one
// System.Random(seed); build-rooms.ts turns them into rooms.

import { DotnetRandom } from './dotnet-random.ts';
import { LAYOUTS, type Layout } from './layouts.ts';
import { EZ_TEMPLATES, HCZ_TEMPLATES, LCZ_TEMPLATES } from './data/room-templates.ts';
import { generateZone, zoneSetup, type ZoneDraw } from './zone-generator.ts';
import { GRID } from './local-frame.ts';

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
