// One atlas zone (LCZ, HCZ or EZ) filled from the shared RNG, following the game's order of draws:
// layout, one rotation per cell in scan order, Fisher-Yates shuffle of the cells, then one candidate
// choice per cell in shuffled order (facility.md section 8).

import type { DotnetRandom } from './dotnet-random.ts';
import type { Layout } from './layouts.ts';
import type { RoomTemplate } from './data/room-templates.ts';

export interface ZoneDraw {
  readonly layout: Layout;
  /** Template chosen per cell index, or -1 when the game would leave the cell empty. */
  readonly chosen: Int16Array;
  /** Drawn template rotation per cell index. */
  readonly rotation: Int16Array;
  /** Cell indices in the order the rooms were spawned. */
  readonly spawnOrder: readonly number[];
}

export interface ZoneSetup {
  readonly templates: readonly RoomTemplate[];
  readonly layouts: readonly Layout[];
  /** Template weights as the game's single-precision floats. */
  readonly chance: Float32Array;
  readonly adjacency: Float32Array;
}

export function zoneSetup(templates: readonly RoomTemplate[], layouts: readonly Layout[]): ZoneSetup {
  return {
    templates,
    layouts,
    chance: Float32Array.from(templates.map((t) => t.chance)),
    adjacency: Float32Array.from(templates.map((t) => t.adjacency)),
  };
}

const f32 = Math.fround;

/**
 * Runs the zone's draws. `beforeShuffle` lets the Entrance zone compute its offset at the point where
 * the game does (it draws nothing, so only the call order matters for readability).
 */
export function generateZone(rng: DotnetRandom, setup: ZoneSetup, beforeShuffle?: (layout: Layout) => void) {
  const layout = setup.layouts[rng.next(setup.layouts.length)]!;
  const cells = layout.cells;
  const n = cells.length;
  const rotation = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    const rotations = cells[i]!.rotations;
    rotation[i] = rotations[rng.next(rotations.length)]!;
  }
  beforeShuffle?.(layout);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.next(i + 1);
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }

  const { templates, chance, adjacency } = setup;
  const count = new Int16Array(templates.length);
  const chosen = new Int16Array(n).fill(-1);
  const spawnOrder: number[] = [];
  const candidates: number[] = [];

  // Weight of template t at cell c: chance times its adjacency factor per placed copy next to c, in float.
  const weight = (t: number, c: number): number => {
    let w = chance[t]!;
    for (const j of cells[c]!.around) if (chosen[j] === t) w = f32(w * adjacency[t]!);
    return w;
  };

  for (const c of order) {
    const cell = cells[c]!;
    const special = cell.specific !== null;
    candidates.length = 0;
    let total = 0;
    let pick = -1;
    for (let t = 0; t < templates.length; t++) {
      const tpl = templates[t]!;
      if (tpl.special !== special || (special && tpl.name !== cell.specific)) continue;
      if (tpl.shape !== cell.shape || count[t]! >= tpl.max) continue;
      if (count[t]! < tpl.min) {
        pick = t;
        break;
      }
      total = f32(total + weight(t, c));
      candidates.push(t);
    }
    if (pick < 0) {
      // The game logs an error and leaves the cell empty when nothing can go there.
      if (candidates.length === 0 || total === 0) continue;
      const draw = rng.nextDouble() * total;
      let sum = 0;
      for (const t of candidates) {
        sum = f32(sum + weight(t, c));
        if (draw <= sum) {
          pick = t;
          break;
        }
      }
      if (pick < 0) continue;
    }
    chosen[c] = pick;
    count[pick]!++;
    spawnOrder.push(c);
  }
  return { layout, chosen, rotation, spawnOrder } satisfies ZoneDraw;
}
