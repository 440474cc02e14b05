import { around } from '../box.ts';
import type { Box } from '../box.ts';
import { doorSize, drawDoor } from '../symbols.ts';
import type { MapLayer } from './layer.ts';

/** Screen box of a door panel of length `len` turned by rotY degrees, outline included. */
function doorBox(sx: number, sy: number, rotY: number, len: number): Box {
  const { long, thick } = doorSize(len);
  const r = (rotY * Math.PI) / 180;
  const c = Math.abs(Math.cos(r));
  const s = Math.abs(Math.sin(r));
  return around(sx, sy, (long * c + thick * s) / 2, (long * s + thick * c) / 2);
}

export const doorsLayer: MapLayer = {
  id: 'doors',
  draw({ ctx, scene, t, opts, out }) {
    if (!opts.layers.doors) return;
    const len = Math.max(7, Math.min(28, t.scale * 4));
    for (const door of scene.doors) {
      const { sx, sy } = t.toScreen(door.x, door.z);
      // On a turned floor the door turns with it.
      drawDoor(ctx, sx, sy, door.rotY + t.turn, len, door.checkpoint);
      out.symbols.push({ kind: 'door', box: doorBox(sx, sy, door.rotY + t.turn, len) });
      out.doorMarks.push({ sx, sy, door });
    }
    out.doors = out.doorMarks.length;
  },
};
