import type { Room } from '../map-types.ts';
import { union } from '../box.ts';
import * as P from '../palette.ts';
import type { RoomGeometry } from '../room-geometry.ts';
import type { FloorScene } from '../scene.ts';
import type { Transform } from '../view-transform.ts';
import { fillBox, geometryIn, screenBox, strokeBox, strokeBoxes } from './geometry.ts';
import type { CountingLayer, Ctx, Frame } from './layer.ts';

// Rooms: open areas as a faint dashed field, cells as the 15 m grid, then corridors and bodies.

const overhangs = (g: RoomGeometry): boolean =>
  !!g.body &&
  (g.body.x0 < g.cell.x0 || g.body.x1 > g.cell.x1 || g.body.y0 < g.cell.y0 || g.body.y1 > g.cell.y1);

type Placed = { room: Room; g: ReturnType<typeof geometryIn> };

function drawOpenAreas(ctx: Ctx, t: Transform, geoms: readonly Placed[]): void {
  // Their real outline is unknown: a faint dashed field, not a solid room.
  for (const { room, g } of geoms) {
    if (room.shape !== 'Undefined' || !g.body) continue;
    const s = screenBox(t, g.body);
    ctx.save();
    ctx.fillStyle = P.ZONE_CELL[room.zone];
    ctx.fillRect(s.x0, s.y0, s.x1 - s.x0, s.y1 - s.y0);
    ctx.strokeStyle = P.ZONE_FILL[room.zone];
    ctx.lineWidth = 2;
    ctx.setLineDash([8, 6]);
    ctx.strokeRect(s.x0, s.y0, s.x1 - s.x0, s.y1 - s.y0);
    ctx.restore();
  }
}

/** Parts on another level (warhead silo, SCP-049's upper chamber): a dashed outline labels avoid. */
function drawLevels(f: Frame, solid: readonly Placed[]): void {
  const { ctx, t } = f;
  ctx.save();
  ctx.lineWidth = 1.5;
  ctx.setLineDash([4, 4]);
  for (const { room, g } of solid) {
    if (!g.levels) continue;
    ctx.strokeStyle = P.ZONE_FILL[room.zone];
    strokeBox(ctx, t, g.levels);
    const s = screenBox(t, g.levels);
    const edges: [number, number, number, number][] = [
      [s.x0, s.y0, s.x1, s.y0],
      [s.x1, s.y0, s.x1, s.y1],
      [s.x1, s.y1, s.x0, s.y1],
      [s.x0, s.y1, s.x0, s.y0],
    ];
    for (const e of edges) for (const box of strokeBoxes(...e, 1.5)) f.symbols.push({ kind: 'link', box });
  }
  ctx.restore();
}

function drawSolid(ctx: Ctx, t: Transform, solid: readonly Placed[]): void {
  // Cell backdrops show the 15 m grid the facility is built on.
  for (const { room, g } of solid) {
    ctx.fillStyle = P.ZONE_CELL[room.zone];
    fillBox(ctx, t, g.cell, -0.5);
  }
  const grow = Math.max(1, Math.min(2.5, t.scale * 0.25));
  // Rooms larger than their cell go underneath, so the neighbours they overhang stay readable.
  for (const { room, g } of solid) {
    if (!g.body || !overhangs(g)) continue;
    ctx.fillStyle = P.OUTLINE;
    fillBox(ctx, t, g.body, grow);
    ctx.fillStyle = P.ZONE_BODY[room.zone];
    fillBox(ctx, t, g.body);
  }
  // Outline pass then fill pass, so touching pieces merge into one clean shape.
  ctx.fillStyle = P.OUTLINE;
  for (const { g } of solid) {
    for (const c of g.corridors) fillBox(ctx, t, c, grow);
    if (g.body && !overhangs(g)) fillBox(ctx, t, g.body, grow);
  }
  for (const { room, g } of solid) {
    ctx.fillStyle = P.ZONE_FILL[room.zone];
    for (const c of g.corridors) fillBox(ctx, t, c);
  }
  for (const { room, g } of solid) {
    if (!g.body || overhangs(g)) continue;
    ctx.fillStyle = P.ZONE_BODY[room.zone];
    fillBox(ctx, t, g.body);
  }
}

export function roomsLayer(): CountingLayer {
  let drawn = 0;
  return {
    draw(f) {
      const geoms = f.scene.rooms.map((room) => ({ room, g: geometryIn(f.scene, room) }));
      drawOpenAreas(f.ctx, f.t, geoms);
      const solid = geoms.filter(({ room }) => room.shape !== 'Undefined');
      drawSolid(f.ctx, f.t, solid);
      drawLevels(f, solid);
      drawn = f.scene.rooms.length;
    },
    drawn: () => drawn,
  };
}

/** A room's outline: hovered (dashed white) or found (solid green). */
export function drawOutline(
  ctx: Ctx,
  scene: FloorScene,
  t: Transform,
  room: Room,
  style: { colour: string; width: number; dash: number[] },
): void {
  const g = geometryIn(scene, room);
  const r = g.body && room.shape === 'Undefined' ? g.body : union(g.cell, g.body);
  ctx.save();
  ctx.strokeStyle = style.colour;
  ctx.lineWidth = style.width;
  ctx.setLineDash(style.dash);
  strokeBox(ctx, t, r, style.width / 2);
  ctx.restore();
}

/** The hovered room and the rooms Find found; it counts the found ones it outlined. */
export function highlightLayer(): CountingLayer {
  let drawn = 0;
  return {
    draw({ ctx, scene, t, opts }) {
      if (opts.hover) drawOutline(ctx, scene, t, opts.hover, { colour: P.HOVER, width: 2, dash: [5, 3] });
      const found = opts.selection?.rooms ?? [];
      for (const room of found) drawOutline(ctx, scene, t, room, { colour: P.MATCH, width: 3, dash: [] });
      drawn = found.length;
    },
    drawn: () => drawn,
  };
}
