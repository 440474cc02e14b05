import { around } from '../box.ts';
import * as P from '../palette.ts';
import { placeLabel, surfacePlaces } from '../surface-places.ts';
import type { MapLayer } from './layer.ts';

// Surface's known places (surface-places.ts) as markers named with the room labels: the escape and
// the Surface gate; the gate elevators' arrivals are the elevators layer's icons. A dashed outline
// marks a place set from the reference facts (approximate), its name starts with "≈".
export const placesLayer: MapLayer = {
  draw({ ctx, scene, t, symbols, captions }) {
    if (scene.floor !== 'surface') return;
    const r = Math.round(Math.min(10, Math.max(6, t.scale * 1.5)));
    // The gate rooms are on another floor: the scene has them as the ends of its elevator links.
    const rooms = [...scene.rooms, ...scene.links.flatMap((l) => [l.a, l.b])];
    for (const p of surfacePlaces({ rooms, doors: scene.doors })) {
      const { sx, sy } = t.toScreen(p.x, p.z);
      if (p.elevatorFrom) {
        // The elevators layer draws and names the icon: ring it as approximate.
        ctx.save();
        ctx.setLineDash([3, 2]);
        ctx.strokeStyle = P.ZONE_BODY.Surface;
        ctx.strokeRect(sx - r - 4, sy - r - 4, 2 * r + 8, 2 * r + 8);
        ctx.restore();
        continue;
      }
      ctx.save();
      ctx.beginPath();
      ctx.arc(sx, sy, r, 0, 2 * Math.PI);
      ctx.fillStyle = P.OUTLINE;
      ctx.fill();
      ctx.lineWidth = 2;
      ctx.strokeStyle = P.ZONE_BODY.Surface;
      if (p.approximate) ctx.setLineDash([3, 2]);
      ctx.stroke();
      ctx.restore();
      captions.push({ text: placeLabel(p), sx, sy, size: 2 * r, below: false });
      symbols.push({ kind: 'place', box: around(sx, sy, r + 1) });
    }
  },
};
