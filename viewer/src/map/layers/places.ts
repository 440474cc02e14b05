import { around } from '../box.ts';
import * as P from '../palette.ts';
import { placeLabel, surfacePlaces } from '../surface-places.ts';
import type { MapLayer } from './layer.ts';

// Surface's known places (surface-places.ts) as markers named with the room labels. The gate
// elevators' arrivals are already drawn as the elevators layer's icons; this adds the escape and
// the Surface gate, a dashed ring marking a place set from the reference facts (approximate).
export const placesLayer: MapLayer = {
  id: 'places',
  draw({ ctx, scene, t, out, captions }) {
    if (scene.floor !== 'surface') return;
    const r = Math.round(Math.min(10, Math.max(6, t.scale * 1.5)));
    for (const p of surfacePlaces(scene)) {
      if (p.elevatorFrom) continue;
      const { sx, sy } = t.toScreen(p.x, p.z);
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
      out.symbols.push({ kind: 'place', box: around(sx, sy, r + 1) });
    }
  },
};
