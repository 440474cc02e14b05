import { roomKey } from '../links.ts';
import { drawLink } from '../symbols.ts';
import { strokeBoxes } from './geometry.ts';
import type { MapLayer } from './layer.ts';

/** Checkpoint passages between two rooms of this floor: a dashed yellow connector. */
export const linksLayer: MapLayer = {
  id: 'links',
  draw({ ctx, scene, t, out }) {
    const keys = new Set(scene.rooms.map(roomKey));
    for (const link of scene.links) {
      if (link.kind !== 'checkpoint' || !keys.has(roomKey(link.a)) || !keys.has(roomKey(link.b))) continue;
      const a = t.toScreen(link.a.x, link.a.z);
      const b = t.toScreen(link.b.x, link.b.z);
      const width = Math.max(2, t.scale * 0.6);
      drawLink(ctx, a.sx, a.sy, b.sx, b.sy, width);
      for (const box of strokeBoxes(a.sx, a.sy, b.sx, b.sy, width)) out.symbols.push({ kind: 'link', box });
      out.links++;
    }
  },
};
