// Spawn points, heavy doors and tesla gates of a generated map, placed from the per-prefab tables by each
// room's position and rotation.

import { readFileSync } from 'node:fs';
import type { PlacedRoom } from './build-rooms.ts';
import type { FeatureTables } from './derive-features.ts';
import { rotateLocal, round2 } from './local-frame.ts';
import type { Door, Spawn, Tesla } from './map-schema.ts';

const TABLES = JSON.parse(
  readFileSync(new URL('./data/prefab-features.json', import.meta.url), 'utf8'),
) as FeatureTables;

const TESLA_PREFAB = 'HCZ_Tesla_Rework';

export interface Features {
  spawns: Spawn[];
  doors: Door[];
  teslas: Tesla[];
}

/**
 * Order (as in the dump): all structure spawn points room by room, then all item spawn points room by
 * room; doors and teslas room by room. Within a room, the table's order.
 */
export function placeFeatures(rooms: readonly PlacedRoom[]): Features {
  const structures: Spawn[] = [];
  const items: Spawn[] = [];
  const doors: Door[] = [];
  const teslas: Tesla[] = [];
  for (const { prefab, out: room } of rooms) {
    if (prefab === TESLA_PREFAB) {
      // The gate hangs at the room centre.
      teslas.push({ x: room.x, y: room.y, z: room.z, rx: room.x, rz: room.z });
    }
    const table = TABLES.prefabs[prefab];
    if (!table) continue;
    for (const s of table.spawns) {
      const [dx, dz] = rotateLocal(s.x, s.z, room.rotY);
      const spawn: Spawn = {
        kind: s.kind,
        cat: s.cat,
        x: round2(room.x + dx),
        y: round2(room.y + s.y),
        z: round2(room.z + dz),
        rx: room.x,
        rz: room.z,
      };
      (s.kind === 'structure' ? structures : items).push(spawn);
    }
    for (const d of table.doors) {
      const [dx, dz] = rotateLocal(d.x, d.z, room.rotY);
      doors.push({
        name: d.name,
        zone: room.zone,
        x: round2(room.x + dx),
        y: round2(room.y + d.y),
        z: round2(room.z + dz),
        rotY: (d.rotY + room.rotY) % 360,
        checkpoint: d.checkpoint,
      });
    }
  }
  return { spawns: structures.concat(items), doors, teslas };
}
