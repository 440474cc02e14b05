import type { Room } from './map-types.ts';
import { floorOf } from './floors.ts';

/** A way between two rooms that is not a plain door on one floor: an elevator or a zone checkpoint. */
export interface RoomLink {
  kind: 'elevator' | 'checkpoint';
  a: Room;
  b: Room;
}

export const roomKey = (r: { x: number; y: number; z: number }): string => `${r.x},${r.y},${r.z}`;

// Pairs the game always links, used when the map's conn lists carry no cross-floor entries
// (older dumps list same-floor neighbours only).
const ELEVATOR_PAIRS: readonly (readonly [string, string])[] = [
  ['LczCheckpointA', 'HczCheckpointA'],
  ['LczCheckpointB', 'HczCheckpointB'],
  ['EzGateA', 'Outside'],
  ['EzGateB', 'Outside'],
];

function pushUnique(out: RoomLink[], seen: Set<string>, link: RoomLink): void {
  const keys = [roomKey(link.a), roomKey(link.b)].sort();
  const id = keys.join('|');
  if (seen.has(id) || keys[0] === keys[1]) return;
  seen.add(id);
  out.push(link);
}

/** Elevator and checkpoint links of a map, each pair once. */
export function findLinks(rooms: readonly Room[]): RoomLink[] {
  const out: RoomLink[] = [];
  const seen = new Set<string>();
  const byKey = new Map(rooms.map((r) => [roomKey(r), r]));

  // 1. Cross-floor or cross-zone entries of conn, as the spec describes them.
  for (const room of rooms) {
    for (const c of room.conn) {
      const crossFloor = c.y !== undefined && c.y !== room.y;
      const crossZone = c.zone !== undefined && c.zone !== room.zone;
      if (!crossFloor && !crossZone) continue;
      const other = byKey.get(roomKey({ x: c.x, y: c.y ?? room.y, z: c.z }));
      if (!other) continue;
      const kind = floorOf(other) === floorOf(room) ? 'checkpoint' : 'elevator';
      pushUnique(out, seen, { kind, a: room, b: other });
    }
  }

  // 2. Known pairs by name.
  for (const [an, bn] of ELEVATOR_PAIRS) {
    const a = rooms.find((r) => r.name === an);
    const b = rooms.find((r) => r.name === bn);
    if (a && b) pushUnique(out, seen, { kind: 'elevator', a, b });
  }

  // 3. Heavy–Entrance checkpoint halves: each Entrance half sits one cell east of its Heavy half.
  const heavy = rooms.filter(
    (r) => r.name === 'HczCheckpointToEntranceZone' && r.zone === 'HeavyContainment',
  );
  const entrance = rooms.filter((r) => r.name === 'HczCheckpointToEntranceZone' && r.zone === 'Entrance');
  for (const h of heavy) {
    let best: Room | undefined;
    for (const e of entrance) {
      if (e.y !== h.y) continue;
      if (!best || Math.hypot(e.x - h.x, e.z - h.z) < Math.hypot(best.x - h.x, best.z - h.z)) best = e;
    }
    if (best) pushUnique(out, seen, { kind: 'checkpoint', a: h, b: best });
  }
  return out;
}

/** The room at the other end of a link. */
export function otherEnd(link: RoomLink, room: Room): Room {
  return roomKey(link.a) === roomKey(room) ? link.b : link.a;
}
