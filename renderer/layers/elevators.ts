import type { Room } from '../map-types.ts';
import { around } from '../box.ts';
import { floorOf } from '../floors.ts';
import { elevatorUnder } from '../hit-test.ts';
import { roomLabel } from '../labels.ts';
import { otherEnd, roomKey } from '../links.ts';
import { drawElevator } from '../symbols.ts';
import type { ElevatorTarget, Frame, MapLayer } from './layer.ts';

function elevatorCaption(other: Room): string {
  switch (floorOf(other)) {
    case 'lcz':
      return 'to LCZ';
    case 'hcz':
      return other.zone === 'Entrance' ? (roomLabel(other)?.short ?? 'to EZ') : 'to HCZ';
    case 'surface':
      return 'to Surface';
    default:
      return 'elevator';
  }
}

export interface ElevatorsLayer extends MapLayer {
  /** The elevator icon under a screen point (a finger's 44 px box around a small icon). */
  elevatorAt(sx: number, sy: number): ElevatorTarget | undefined;
}

/** Elevator icons; their captions ("to LCZ") are placed with the room labels. */
export function elevatorsLayer(): ElevatorsLayer {
  let marks: ElevatorTarget[] = [];
  return {
    draw(f) {
      marks = [];
      drawElevators(f, marks);
    },
    elevatorAt: (sx, sy) => elevatorUnder(marks, sx, sy),
  };
}

function drawElevators({ ctx, scene, t, symbols, captions }: Frame, marks: ElevatorTarget[]): void {
  const keys = new Set(scene.rooms.map(roomKey));
  const size = Math.round(Math.min(22, Math.max(12, t.scale * 3)));
  const perRoom = new Map<string, number>();
  for (const link of scene.links) {
    if (link.kind !== 'elevator') continue;
    for (const end of [link.a, link.b]) {
      if (!keys.has(roomKey(end))) continue;
      const other = otherEnd(link, end);
      const k = roomKey(end);
      const nth = perRoom.get(k) ?? 0;
      perRoom.set(k, nth + 1);
      // Top-right corner of the cell, keeping the centre free for the label; open areas stack
      // their several elevators side by side.
      const open = end.shape === 'Undefined';
      const off = open ? { x: -8 + nth * 16, z: -11 } : { x: 4.5, z: 4.5 };
      const { sx, sy } = t.toScreen(end.x + off.x, end.z + off.z);
      drawElevator(ctx, sx, sy, size);
      if (t.scale * 15 >= 40 || open)
        captions.push({ text: elevatorCaption(other), sx, sy, size, below: open });
      marks.push({ sx, sy, size, room: end, other });
      symbols.push({ kind: 'elevator', box: around(sx, sy, size / 2) });
    }
  }
}
