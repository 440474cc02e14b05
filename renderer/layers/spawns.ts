import { around } from '../box.ts';
import { LEVEL_TOLERANCE } from '../room-extents.ts';
import { ALL, itemMatches, structureMatches } from '../spawn-filter.ts';
import { spawnCategory } from '../spawn-kinds.ts';
import { drawItem, drawStructure } from '../symbols.ts';
import type { Ctx, Frame, MapLayer, SpawnMark } from './layer.ts';

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

/** Item and structure spawn points; matches and found ones are drawn last, over the labels. */
export const spawnsLayer: MapLayer = {
  id: 'spawns',
  draw(f) {
    const { ctx, scene, t, opts, out } = f;
    const sizes: Sizes = {
      structure: Math.max(4, Math.min(9, t.scale * 0.9)),
      item: Math.max(6, Math.min(10, t.scale * 0.8)),
    };
    const found = new Set(opts.selection?.spawns ?? []);
    const onTop: SpawnMark[] = [];
    for (const spawn of scene.spawns) {
      const isFound = found.has(spawn);
      if (!shown(f, spawn, isFound)) continue;
      const { sx, sy } = t.toScreen(spawn.x, spawn.z);
      const mark = { sx, sy, spawn };
      out.spawnMarks.push(mark);
      const isMatch =
        isFound || (spawn.kind === 'item' ? opts.itemFilter !== ALL : opts.structureFilter !== ALL);
      out.symbols.push({ kind: 'spawn', box: around(sx, sy, halfSize(mark, sizes, isMatch)) });
      if (isMatch) onTop.push(mark);
      else drawSpawn(ctx, mark, scene.floorY, sizes, false);
    }
    out.spawns = out.spawnMarks.length;
    out.selected += onTop.filter((m) => found.has(m.spawn)).length;
    f.onTop.push(() => {
      for (const m of onTop) drawSpawn(ctx, m, scene.floorY, sizes, true);
    });
  },
};
