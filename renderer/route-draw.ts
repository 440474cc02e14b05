import type { Room } from './map-types.ts';
import * as P from './palette.ts';
import type { Transform } from './view-transform.ts';

// The route's part on one floor: a line through the centres of its rooms, a ring where it starts
// or leaves the floor and a filled dot where it arrives.

type Ctx = CanvasRenderingContext2D;

export function drawRoute(ctx: Ctx, t: Transform, runs: readonly (readonly Room[])[]): void {
  const width = Math.max(3, Math.min(8, t.scale * 0.8));
  ctx.save();
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  for (const run of runs) {
    const pts = run.map((r) => t.toScreen(r.x, r.z));
    ctx.beginPath();
    pts.forEach((p, i) => (i ? ctx.lineTo(p.sx, p.sy) : ctx.moveTo(p.sx, p.sy)));
    ctx.strokeStyle = P.OUTLINE;
    ctx.lineWidth = width + 4;
    ctx.stroke();
    ctx.strokeStyle = P.ROUTE;
    ctx.lineWidth = width;
    ctx.stroke();
    const first = pts[0];
    const last = pts.at(-1);
    const r = width * 1.4;
    if (first) {
      ctx.beginPath();
      ctx.arc(first.sx, first.sy, r, 0, Math.PI * 2);
      ctx.fillStyle = P.OUTLINE;
      ctx.fill();
      ctx.strokeStyle = P.ROUTE;
      ctx.lineWidth = 3;
      ctx.stroke();
    }
    if (last && last !== first) {
      ctx.beginPath();
      ctx.arc(last.sx, last.sy, r, 0, Math.PI * 2);
      ctx.fillStyle = P.ROUTE;
      ctx.fill();
    }
  }
  ctx.restore();
}
