import { around } from '../box.ts';
import { nearest } from '../hit-test.ts';
import type { Spawn } from '../map-types.ts';
import { LEVEL_TOLERANCE } from '../room-extents.ts';
import { ALL, itemMatches, structureMatches } from '../spawn-filter.ts';
import { spawnCategory } from '../spawn-kinds.ts';
import { drawItem, drawStructure } from '../symbols.ts';
import type { CountingLayer, Ctx, Frame, SpawnMark } from './layer.ts';

/** How near a spawn's centre the pointer names it, in CSS px. */
const SPAWN_HIT_PX = 12;

/** Half the drawn size of a spawn's symbol (items: the badge's radius), halo included. */
function halfSize(m: SpawnMark, sizes: Sizes, match: boolean): number {
  if (m.spawn.kind === 'structure') return (match ? sizes.structure * 1.5 : sizes.structure) / 2 + 1;
  return match ? sizes.item * 1.8 + 1 : sizes.item + 1;
}

interface Sizes {
  /** Structure square's side. */
  structure: number;
  /** Item badge's radius: its glyph stays readable at every zoom. */
  item: number;
}

function drawSpawn(ctx: Ctx, m: SpawnMark, floorY: number, sizes: Sizes, match: boolean): void {
  const offLevel = Math.abs(m.spawn.y - floorY) > LEVEL_TOLERANCE;
  if (m.spawn.kind === 'structure')
    drawStructure(ctx, m.sx, m.sy, match ? sizes.structure * 1.5 : sizes.structure, offLevel, match);
  else drawItem(ctx, m.sx, m.sy, sizes.item, spawnCategory(m.spawn), offLevel, match);
}

/** Whether the spawn is shown: found, or on a shown layer and through its filter. */
function shown(f: Frame, spawn: SpawnMark['spawn'], found: boolean): boolean {
  const { layers, structureFilter, itemFilter } = f.opts;
  if (found) return true;
  return spawn.kind === 'structure'
    ? layers.structures && structureMatches(spawn, structureFilter)
    : layers.items && itemMatches(spawn, itemFilter);
}

export interface SpawnsLayer extends CountingLayer {
  /** Found spawns drawn (Find's matches). */
  found(): number;
  /** The drawn spawn point nearest a screen point, within a few pixels. */
  spawnAt(sx: number, sy: number): Spawn | undefined;
}

/** Item and structure spawn points; matches and found ones are drawn last, over the labels. */
export function spawnsLayer(): SpawnsLayer {
  let marks: SpawnMark[] = [];
  let found = 0;
  return {
    draw(f) {
      marks = drawSpawns(f);
      const selected = new Set(f.opts.selection?.spawns ?? []);
      found = marks.filter((m) => selected.has(m.spawn)).length;
    },
    drawn: () => marks.length,
    found: () => found,
    spawnAt: (sx, sy) => nearest(marks, sx, sy, SPAWN_HIT_PX)?.spawn,
  };
}

/** Draws the shown spawns (the matches on top, later) and returns their marks. */
function drawSpawns(f: Frame): SpawnMark[] {
  const { ctx, scene, t, opts, symbols } = f;
  const sizes: Sizes = {
    structure: Math.max(4, Math.min(9, t.scale * 0.9)),
    item: Math.max(6, Math.min(10, t.scale * 0.8)),
  };
  const found = new Set(opts.selection?.spawns ?? []);
  const onTop: SpawnMark[] = [];
  const marks: SpawnMark[] = [];
  for (const spawn of scene.spawns) {
    const isFound = found.has(spawn);
    if (!shown(f, spawn, isFound)) continue;
    const { sx, sy } = t.toScreen(spawn.x, spawn.z);
    const mark = { sx, sy, spawn };
    marks.push(mark);
    const isMatch =
      isFound || (spawn.kind === 'item' ? opts.itemFilter !== ALL : opts.structureFilter !== ALL);
    symbols.push({ kind: 'spawn', box: around(sx, sy, halfSize(mark, sizes, isMatch)) });
    if (isMatch) onTop.push(mark);
    else drawSpawn(ctx, mark, scene.floorY, sizes, false);
  }
  f.onTop.push(() => {
    for (const m of onTop) drawSpawn(ctx, m, scene.floorY, sizes, true);
  });
  return marks;
}
