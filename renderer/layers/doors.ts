import { around } from '../box.ts';
import type { Box } from '../box.ts';
import { nearest } from '../hit-test.ts';
import type { Door } from '../map-types.ts';
import { doorSize, drawDoor } from '../symbols.ts';
import type { CountingLayer, DoorMark } from './layer.ts';

/** How near a door's centre the pointer names it, in CSS px. */
const DOOR_HIT_PX = 10;

/** Screen box of a door panel of length `len` turned by rotY degrees, outline included. */
function doorBox(sx: number, sy: number, rotY: number, len: number): Box {
  const { long, thick } = doorSize(len);
  const r = (rotY * Math.PI) / 180;
  const c = Math.abs(Math.cos(r));
  const s = Math.abs(Math.sin(r));
  return around(sx, sy, (long * c + thick * s) / 2, (long * s + thick * c) / 2);
}

export interface DoorsLayer extends CountingLayer {
  /** The drawn door nearest a screen point, within a few pixels. */
  doorAt(sx: number, sy: number): Door | undefined;
}

export function doorsLayer(): DoorsLayer {
  let marks: DoorMark[] = [];
  return {
    draw({ ctx, scene, t, opts, symbols }) {
      marks = [];
      if (!opts.layers.doors) return;
      const len = Math.max(7, Math.min(28, t.scale * 4));
      for (const door of scene.doors) {
        const { sx, sy } = t.toScreen(door.x, door.z);
        // On a turned floor the door turns with it.
        drawDoor(ctx, sx, sy, door.rotY + t.turn, len, door.checkpoint);
        symbols.push({ kind: 'door', box: doorBox(sx, sy, door.rotY + t.turn, len) });
        marks.push({ sx, sy, door });
      }
    },
    drawn: () => marks.length,
    doorAt: (sx, sy) => nearest(marks, sx, sy, DOOR_HIT_PX)?.door,
  };
}
