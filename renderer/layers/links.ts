import { roomKey } from '../links.ts';
import { drawLink } from '../symbols.ts';
import { strokeBoxes } from './geometry.ts';
import type { CountingLayer } from './layer.ts';

/** Checkpoint passages between two rooms of this floor: a dashed yellow connector. */
export function linksLayer(): CountingLayer {
  let drawn = 0;
  return {
    draw({ ctx, scene, t, symbols }) {
      drawn = 0;
      const keys = new Set(scene.rooms.map(roomKey));
      for (const link of scene.links) {
        if (link.kind !== 'checkpoint' || !keys.has(roomKey(link.a)) || !keys.has(roomKey(link.b))) continue;
        const a = t.toScreen(link.a.x, link.a.z);
        const b = t.toScreen(link.b.x, link.b.z);
        const width = Math.max(2, t.scale * 0.6);
        drawLink(ctx, a.sx, a.sy, b.sx, b.sy, width);
        for (const box of strokeBoxes(a.sx, a.sy, b.sx, b.sy, width)) symbols.push({ kind: 'link', box });
        drawn++;
      }
    },
    drawn: () => drawn,
  };
}
