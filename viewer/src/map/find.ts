import type { MapData, Room, Spawn } from '../../../renderer/map-types.ts';
import { FLOORS, floorOf } from '../../../renderer/floors.ts';
import type { FloorId } from '../../../renderer/floors.ts';
import type { FindTargets } from './find-target.ts';
import { checkpointSplit, prefabName, roomLabel, ZONE_SHORT, zoneLabel } from '../../../renderer/labels.ts';
import { itemName, structureName } from '../../../renderer/names.ts';
import { itemMatches, itemType, ITEM_GROUPS, structureTypes } from '../../../renderer/spawn-filter.ts';
import { surfacePlaces } from '../../../renderer/surface-places.ts';

// "Find on this map": an index of what a player looks for (named rooms, Surface's places, zones,
// item and structure types), each with its rooms or spawn points per floor. Names are cut into
// words (at spaces, punctuation, and where letters meet digits or a capital starts a word); every
// word of a query must begin a run of a name's words, in any order. So "scp 079", "SCP-079" and the
// game's "Hcz079" find the same room, "d-class" and "class d" find the Class-D cells, "microhid"
// finds Micro-HID, and "o5" does not find "5.56×45 mm ammo" (no word of it starts with "o").

export type { FindTargets };

export type FindKind = 'room' | 'zone' | 'item' | 'struct';

export interface FindEntry {
  /** Stable id for links: "room:scp-079", "zone:Entrance", "item:MicroHID", "struct:Workstation". */
  id: string;
  kind: FindKind;
  name: string;
  /** Names it is found by, each as its normalized words joined by spaces, `|`-separated. */
  keys: string;
  floors: Partial<Record<FloorId, FindTargets>>;
}

/** One line of the result list: an entry on one floor. */
export interface FindResult {
  entry: FindEntry;
  floor: FloorId;
  count: number;
}

const KIND_ORDER: Readonly<Record<FindKind, number>> = { room: 0, zone: 1, item: 2, struct: 3 };

/** The words of a name or query: "HczMicroHID" → hcz micro hid, "SCP-079" → scp 079. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z])(?=[A-Z])|([A-Z])(?=[A-Z][a-z])/g, '$1$2 ')
    .toLowerCase()
    .replace(/([a-z])(?=[0-9])|([0-9])(?=[a-z])/g, '$1$2 ')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Whether `word` begins some run of a name's words (`name` as stored in keys). */
function startsRun(name: string, word: string): boolean {
  const parts = name.split(' ');
  return parts.some((_, i) => parts.slice(i).join('').startsWith(word));
}

// Other words players find a room by.
const ROOM_KEYS: Readonly<Record<string, readonly string[]>> = {
  EzGateA: ['exit'],
  EzGateB: ['exit'],
};

export const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Collects entries by id, adding each room or spawn to its floor. */
class Entries {
  readonly byId = new Map<string, FindEntry>();

  add(id: string, kind: FindKind, name: string, keys: string[], floor: FloorId, what: Room | Spawn): void {
    let e = this.byId.get(id);
    if (!e) {
      const names = [name, ...keys].map((k) => words(k).join(' ')).filter(Boolean);
      e = { id, kind, name, keys: names.join('|'), floors: {} };
      this.byId.set(id, e);
    }
    const t = (e.floors[floor] ??= { rooms: [], spawns: [] });
    if ('kind' in what) t.spawns.push(what);
    else t.rooms.push(what);
  }
}

export function buildFindIndex(map: MapData): FindEntry[] {
  const splitZ = checkpointSplit(map.rooms);
  const out = new Entries();
  for (const room of map.rooms) {
    const floor = floorOf(room);
    if (!floor) continue;
    const label = roomLabel(room, splitZ);
    if (label) {
      const keys = [label.short, room.name, prefabName(room.variant) ?? '', ...(ROOM_KEYS[room.name] ?? [])];
      out.add(`room:${slug(label.full)}`, 'room', label.full, keys, floor, room);
    }
    const abbr = ZONE_SHORT[room.zone];
    if (abbr) out.add(`zone:${room.zone}`, 'zone', zoneLabel(room.zone), [abbr, room.zone], floor, room);
  }
  for (const p of surfacePlaces(map)) out.add(p.id, 'room', p.name, [...p.keys], 'surface', p.room);
  for (const spawn of map.spawns) {
    const floor = floorOf(spawn);
    if (!floor) continue;
    const type = itemType(spawn);
    // "group" and "random" are picks among several types, not something to look for.
    if (type && type !== 'group' && type !== 'random') {
      out.add(`item:${type}`, 'item', itemName(type), [type], floor, spawn);
      for (const g of ITEM_GROUPS) {
        // "Any keycard" is also found by "keycard" alone, ranked as an exact match.
        const family = g.label.replace(/^Any /, '');
        if (itemMatches(spawn, g.value)) out.add(`item:${g.value}`, 'item', g.label, [family], floor, spawn);
      }
    }
    for (const s of structureTypes(spawn))
      out.add(`struct:${s}`, 'struct', structureName(s), [s], floor, spawn);
  }
  return [...out.byId.values()];
}

/** The `room:` id a room is found by, if it has a name to find. */
export function roomFindId(index: readonly FindEntry[], room: Room): string | undefined {
  return index.find((e) => e.kind === 'room' && Object.values(e.floors).some((t) => t.rooms.includes(room)))
    ?.id;
}

export function targetCount(entry: FindEntry, t: FindTargets): number {
  return entry.kind === 'item' || entry.kind === 'struct' ? t.spawns.length : t.rooms.length;
}

/**
 * Entries matching every word of the query, one result per floor they are on: exact names first,
 * then names starting with the query, then the rest; rooms before zones, items and structures.
 */
export function findOnMap(index: readonly FindEntry[], query: string): FindResult[] {
  const asked = words(query);
  if (!asked.length) return [];
  const whole = asked.join('');
  const scored: { r: FindResult; score: number }[] = [];
  for (const entry of index) {
    const names = entry.keys.split('|');
    if (!asked.every((w) => names.some((n) => startsRun(n, w)))) continue;
    const keys = names.map((n) => n.replace(/ /g, ''));
    const score = keys.includes(whole) ? 0 : keys.some((k) => k.startsWith(whole)) ? 1 : 2;
    for (const f of FLOORS) {
      const t = entry.floors[f.id];
      if (t) scored.push({ r: { entry, floor: f.id, count: targetCount(entry, t) }, score });
    }
  }
  const floorOrder = (id: FloorId): number => FLOORS.findIndex((f) => f.id === id);
  scored.sort(
    (a, b) =>
      a.score - b.score ||
      KIND_ORDER[a.r.entry.kind] - KIND_ORDER[b.r.entry.kind] ||
      a.r.entry.name.localeCompare(b.r.entry.name) ||
      floorOrder(a.r.floor) - floorOrder(b.r.floor),
  );
  return scored.map((s) => s.r);
}
