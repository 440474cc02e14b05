import { around } from '../box.ts';
import { drawTesla } from '../symbols.ts';
import type { CountingLayer } from './layer.ts';

export function teslasLayer(): CountingLayer {
  let drawn = 0;
  return {
    draw({ ctx, scene, t, opts, symbols }) {
      drawn = 0;
      if (!opts.layers.teslas) return;
      const r = Math.max(6, Math.min(14, t.scale * 2));
      for (const tesla of scene.teslas) {
        const { sx, sy } = t.toScreen(tesla.x, tesla.z);
        drawTesla(ctx, sx, sy, r);
        symbols.push({ kind: 'tesla', box: around(sx, sy, r + 1) });
        drawn++;
      }
    },
    drawn: () => drawn,
  };
}
