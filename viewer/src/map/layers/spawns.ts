import { around } from '../box.ts';
import { LEVEL_TOLERANCE } from '../room-extents.ts';
import { ALL, itemMatches, structureMatches } from '../spawn-filter.ts';
import { drawItem, drawStructure } from '../symbols.ts';
import type { Ctx, Frame, MapLayer, SpawnMark } from './layer.ts';

function drawSpawn(ctx: Ctx, m: SpawnMark, floorY: number, size: number, match: boolean): void {
  const offLevel = Math.abs(m.spawn.y - floorY) > LEVEL_TOLERANCE;
  if (m.spawn.kind === 'structure') drawStructure(ctx, m.sx, m.sy, size, offLevel, match);
  else drawItem(ctx, m.sx, m.sy, size / 2, offLevel, match);
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
    const markSize = Math.max(4, Math.min(9, t.scale * 0.9));
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
      const size = isMatch ? markSize * 1.5 : markSize;
      // Items are dots of radius size/2; a match adds its halo ring (drawItem).
      const half = spawn.kind === 'item' ? (isMatch ? size * 1.2 + 1 : size / 2 + 1) : size / 2 + 1;
      out.symbols.push({ kind: 'spawn', box: around(sx, sy, half) });
      if (isMatch) onTop.push(mark);
      else drawSpawn(ctx, mark, scene.floorY, size, false);
    }
    out.spawns = out.spawnMarks.length;
    out.selected += onTop.filter((m) => found.has(m.spawn)).length;
    f.onTop.push(() => {
      for (const m of onTop) drawSpawn(ctx, m, scene.floorY, markSize * 1.5, true);
    });
  },
};
