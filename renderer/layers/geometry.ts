import type { Room } from '../map-types.ts';
import { around, spanning } from '../box.ts';
import type { Box } from '../box.ts';
import { roomGeometry } from '../room-geometry.ts';
import type { RoomGeometry } from '../room-geometry.ts';
import { extentOf } from '../scene.ts';
import type { FloorScene } from '../scene.ts';
import type { Transform } from '../view-transform.ts';
import type { Ctx } from './layer.ts';

// Drawing world boxes on screen, shared by the layers.

/** A world box's screen box (corners in either order: a turned floor swaps them). */
export function screenBox(t: Transform, r: Box): Box {
  const a = t.toScreen(r.x0, r.y1);
  const b = t.toScreen(r.x1, r.y0);
  return spanning(a.sx, a.sy, b.sx, b.sy);
}

export function fillBox(ctx: Ctx, t: Transform, r: Box, grow = 0): void {
  const s = screenBox(t, r);
  ctx.fillRect(s.x0 - grow, s.y0 - grow, s.x1 - s.x0 + 2 * grow, s.y1 - s.y0 + 2 * grow);
}

export function strokeBox(ctx: Ctx, t: Transform, r: Box, inset = 0): void {
  const s = screenBox(t, r);
  ctx.strokeRect(s.x0 + inset, s.y0 + inset, s.x1 - s.x0 - 2 * inset, s.y1 - s.y0 - 2 * inset);
}

/** A room's drawn geometry, its body grown to hold everything placed in it (room-extents.ts). */
export function geometryIn(scene: FloorScene, room: Room): RoomGeometry & { levels: Box | undefined } {
  const g = roomGeometry(room);
  const e = extentOf(scene, room);
  const levels = e?.all && e.all !== e.main && room.shape !== 'Undefined' ? e.all : undefined;
  return { ...g, body: e?.main ?? g.body, levels };
}

/** Boxes covering a straight stroke, a few pixels long each, so a diagonal blocks only its path. */
export function strokeBoxes(ax: number, ay: number, bx: number, by: number, width: number): Box[] {
  const n = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / 6));
  const out: Box[] = [];
  for (let i = 0; i <= n; i++)
    out.push(around(ax + ((bx - ax) * i) / n, ay + ((by - ay) * i) / n, width / 2 + 3));
  return out;
}
