// Turns the zone draws into world rooms with their connections, in a documented deterministic order.

import type { FacilityDraws } from './facility-draws.ts';
import type { ZoneDraw } from './zone-generator.ts';
import type { RoomTemplate } from './data/room-templates.ts';
import { EZ_TEMPLATES, HCZ_TEMPLATES, LCZ_TEMPLATES } from './data/room-templates.ts';
import type { Conn, Room, Zone } from './map-schema.ts';
import { GRID } from './local-frame.ts';

export interface PlacedRoom {
  readonly prefab: string;
  readonly out: Room;
}

interface ZoneFrame {
  readonly zone: Zone;
  readonly y: number;
  readonly templates: readonly RoomTemplate[];
  /** World rotY = template rotation + this (EZ prefabs are authored turned by 90 degrees). */
  readonly rotationOffset: number;
}

const LCZ_FRAME: ZoneFrame = {
  zone: 'LightContainment',
  y: 100,
  templates: LCZ_TEMPLATES,
  rotationOffset: 0,
};
const HCZ_FRAME: ZoneFrame = {
  zone: 'HeavyContainment',
  y: -100,
  templates: HCZ_TEMPLATES,
  rotationOffset: 0,
};
const EZ_FRAME: ZoneFrame = { zone: 'Entrance', y: -100, templates: EZ_TEMPLATES, rotationOffset: -90 };

function single(name: string, zone: Zone, y: number, prefab: string): PlacedRoom {
  return {
    prefab,
    out: { name, zone, shape: 'Undefined', x: 0, y, z: 0, rotY: 0, variant: `${prefab}(Clone)`, conn: [] },
  };
}

function zoneRooms(draw: ZoneDraw, frame: ZoneFrame, dx: number, dz: number): PlacedRoom[] {
  const { layout, chosen, rotation, spawnOrder } = draw;
  const byCell: (PlacedRoom | undefined)[] = [];
  const rooms: PlacedRoom[] = [];
  for (const c of spawnOrder) {
    const cell = layout.cells[c]!;
    const tpl = frame.templates[chosen[c]!]!;
    const rotY = (((rotation[c]! + frame.rotationOffset) % 360) + 360) % 360;
    const room: PlacedRoom = {
      prefab: tpl.prefab,
      out: {
        name: tpl.name,
        zone: frame.zone,
        shape: tpl.shape,
        x: cell.cx * GRID + dx,
        y: frame.y,
        z: cell.cz * GRID + dz,
        rotY: rotY as Room['rotY'],
        variant: `${tpl.prefab}(Clone)`,
        conn: [],
      },
    };
    byCell[c] = room;
    rooms.push(room);
  }
  // Door neighbours: both cells open toward each other (precomputed per layout), same zone only.
  for (const c of spawnOrder) {
    const conn = byCell[c]!.out.conn;
    for (const j of layout.cells[c]!.doors) {
      const other = byCell[j];
      if (other) conn.push({ x: other.out.x, z: other.out.z });
    }
  }
  return rooms;
}

function link(a: PlacedRoom | undefined, b: PlacedRoom | undefined): void {
  if (!a || !b) return;
  a.out.conn.push(connTo(a.out, b.out));
  b.out.conn.push(connTo(b.out, a.out));
}

function connTo(from: Room, to: Room): Conn {
  return from.y === to.y ? { x: to.x, z: to.z } : { x: to.x, z: to.z, y: to.y, zone: to.zone };
}

export interface BuildOptions {
  /** Add the HCZ/EZ checkpoint walk-through and the elevator links to conn (default true). */
  readonly links?: boolean;
}

/**
 * Room order: LCZ, HCZ, EZ rooms each in the order the game spawned them (shuffled cell order), then
 * Surface, then Pocket. Connections list door neighbours N, E, S, W, then cross-zone links.
 */
export function buildRooms(draws: FacilityDraws, options: BuildOptions = {}): PlacedRoom[] {
  const lcz = zoneRooms(draws.lcz, LCZ_FRAME, 0, 0);
  const hcz = zoneRooms(draws.hcz, HCZ_FRAME, 0, 0);
  const ez = zoneRooms(draws.ez, EZ_FRAME, draws.ezOffset.x, draws.ezOffset.z);
  const outside = single('Outside', 'Surface', 300, 'Outside');
  const pocket = single('Pocket', 'Other', -300, 'PocketWorld');
  if (options.links !== false) {
    const find = (list: PlacedRoom[], prefab: string) => list.filter((r) => r.prefab === prefab);
    for (const part of find(hcz, 'HCZ_EZ_Checkpoint Part')) {
      // The EZ template is translated so that its checkpoint parts share z with HCZ's.
      link(
        part,
        find(ez, 'EZ_HCZ_Checkpoint Part').find((e) => e.out.z === part.out.z),
      );
    }
    link(find(lcz, 'LCZ_ChkpA')[0], find(hcz, 'HCZ_ChkpA')[0]);
    link(find(lcz, 'LCZ_ChkpB')[0], find(hcz, 'HCZ_ChkpB')[0]);
    link(find(ez, 'EZ_GateA')[0], outside);
    link(find(ez, 'EZ_GateB')[0], outside);
  }
  return [...lcz, ...hcz, ...ez, outside, pocket];
}
