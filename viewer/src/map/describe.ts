import type { MapData, Room, Spawn, Zone } from '../../../renderer/map-types.ts';
import { formatCoord } from '../format.ts';
import { FLOORS, floorById, floorOf } from '../../../renderer/floors.ts';
import type { FloorId } from '../../../renderer/floors.ts';
import { floorLayouts } from './layout-names.ts';
import { checkpointSplit, describeRoom, prefabName, roomLabel, zoneLabel } from '../../../renderer/labels.ts';
import { ITEM_EXPLAINED, itemName, structureName } from '../../../renderer/names.ts';
import { itemType, structureTypes } from '../../../renderer/spawn-filter.ts';

// Texts for the info panel and the canvas's text alternative.

export interface InfoLine {
  term: string;
  detail: string;
}

export function roomInfo(room: Room, splitZ: number | undefined): InfoLine[] {
  const lines: InfoLine[] = [{ term: 'Room', detail: describeRoom(room, splitZ) }];
  lines.push({ term: 'Name', detail: room.name });
  const prefab = prefabName(room.variant);
  if (prefab) lines.push({ term: 'Variant', detail: prefab });
  lines.push({ term: 'Zone', detail: zoneLabel(room.zone) });
  if (room.shape !== 'Undefined') lines.push({ term: 'Shape', detail: `${room.shape}, rotY ${room.rotY}°` });
  lines.push({
    term: 'Centre',
    detail: `${formatCoord(room.x)}, ${formatCoord(room.y)}, ${formatCoord(room.z)}`,
  });
  return lines;
}

/** "Scientist keycard", or what a random pick means. */
export function spawnName(spawn: Spawn): string {
  if (spawn.kind === 'structure') return structureTypes(spawn).map(structureName).join(' or ');
  const type = itemType(spawn) ?? spawn.cat;
  const why = ITEM_EXPLAINED[type];
  return why ? `${itemName(type)}: ${why}` : itemName(type);
}

/** Plain-text description of the map for screen readers: room counts per zone and named rooms. */
export function mapSummary(map: MapData, floor: FloorId): string[] {
  const splitZ = checkpointSplit(map.rooms);
  const lines: string[] = [];
  const counts = new Map<Zone, number>();
  for (const r of map.rooms) counts.set(r.zone, (counts.get(r.zone) ?? 0) + 1);
  const zoneText = [...counts.entries()].map(([z, n]) => `${zoneLabel(z)} ${n}`).join(', ');
  lines.push(
    `Seed ${map.seed}: ${map.rooms.length} rooms (${zoneText}), ${map.spawns.length} spawn points, ${map.doors.length} heavy doors, ${map.teslas.length} tesla gates.`,
  );
  for (const f of FLOORS) {
    const rooms = map.rooms.filter((r) => floorOf(r) === f.id);
    const named = rooms
      .filter((r) => roomLabel(r, splitZ))
      .map((r) => `${describeRoom(r, splitZ)} (${formatCoord(r.x)}, ${formatCoord(r.z)})`);
    const current = f.id === floor ? ' (shown)' : '';
    const layouts = floorLayouts(map, f.id);
    const built = layouts.length ? ` Built from ${layouts.join(' and ')}.` : '';
    lines.push(
      `${f.label}${current}: ${rooms.length} room${rooms.length === 1 ? '' : 's'}.${built} ${named.length ? `Named rooms: ${named.join('; ')}.` : ''}`.trim(),
    );
  }
  return lines;
}

/** Spawn matches of a filter per floor, e.g. for "where can a keycard spawn?". */
export function matchesPerFloor(
  spawns: readonly Spawn[],
  test: (s: Spawn) => boolean,
): Record<FloorId, number> {
  const out: Record<FloorId, number> = { lcz: 0, hcz: 0, surface: 0 };
  for (const s of spawns) {
    const f = floorOf(s);
    if (f && test(s)) out[f]++;
  }
  return out;
}

export function floorName(id: FloorId): string {
  return floorById(id).label;
}
