import { around } from '../box.ts';
import { drawTesla } from '../symbols.ts';
import type { MapLayer } from './layer.ts';

export const teslasLayer: MapLayer = {
  id: 'teslas',
  draw({ ctx, scene, t, opts, out }) {
    if (!opts.layers.teslas) return;
    const r = Math.max(6, Math.min(14, t.scale * 2));
    for (const tesla of scene.teslas) {
      const { sx, sy } = t.toScreen(tesla.x, tesla.z);
      drawTesla(ctx, sx, sy, r);
      out.symbols.push({ kind: 'tesla', box: around(sx, sy, r + 1) });
      out.teslas++;
    }
  },
};
