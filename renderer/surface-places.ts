import type { MapData, Room } from './map-types.ts';

// Surface's known places. The map carries Surface as one open room ("Outside") and, among its
// heavy doors, the Surface gate; the reference facts (facility.md parts 1 and 4) add the escape
// point and say the Gate A and Gate B elevators arrive at the Outside room. Each place is a point
// a route can reach and Find can name; a place set from the facts rather than the map's own data
// is approximate, and says so wherever it is shown.

export interface SurfacePlace {
  /** The `room:` id Find and routes name it by. */
  id: string;
  name: string;
  /** Other words it is found by. */
  keys: readonly string[];
  x: number;
  z: number;
  /** Set from the reference facts, not from this map's data. */
  approximate: boolean;
  /** The EZ room whose elevator arrives here. */
  elevatorFrom?: string;
  /** A point room standing for the place in the route graph and Find's results. */
  room: Room;
}

/** Escape point of game version 14.1.1 (facility.md part 1, "14.1.1 escape point (124, 289, 31)"). */
const ESCAPE = { x: 124, z: 31 };
/** Where the gate elevators are drawn beside the Outside room's centre, metres. */
const ARRIVAL_OFFSET: Readonly<Record<'EzGateA' | 'EzGateB', { x: number; z: number }>> = {
  EzGateA: { x: -8, z: -11 },
  EzGateB: { x: 8, z: -11 },
};

const PLACE_PREFIX = 'Surface:';

/** Whether a room is one of the point rooms standing for a Surface place. */
export const isPlaceRoom = (room: Room): boolean => room.name.startsWith(PLACE_PREFIX);

const pointRoom = (name: string, outside: Room, x: number, z: number): Room => ({
  name,
  zone: 'Surface',
  shape: 'Undefined',
  x,
  y: outside.y,
  z,
  rotY: 0,
  variant: null,
  conn: [],
});

/** Surface's known places on a map; none when the map has no Surface. */
export function surfacePlaces(map: Pick<MapData, 'rooms'> & Partial<Pick<MapData, 'doors'>>): SurfacePlace[] {
  const outside = map.rooms.find((r) => r.name === 'Outside');
  if (!outside) return [];
  const places: SurfacePlace[] = [];
  const add = (p: Omit<SurfacePlace, 'room'>): void => {
    places.push({ ...p, room: pointRoom(PLACE_PREFIX + p.id, outside, p.x, p.z) });
  };
  const gate = map.doors?.find((d) => d.name === 'SurfaceGate');
  if (gate)
    add({
      id: 'room:surface-gate',
      name: 'Surface gate',
      keys: [],
      x: gate.x,
      z: gate.z,
      approximate: false,
    });
  for (const [from, letter] of [
    ['EzGateA', 'A'],
    ['EzGateB', 'B'],
  ] as const) {
    if (!map.rooms.some((r) => r.name === from)) continue;
    const off = ARRIVAL_OFFSET[from];
    add({
      id: `room:gate-${letter.toLowerCase()}-surface`,
      name: `Gate ${letter} elevator (Surface)`,
      keys: [`Gate ${letter} Surface`],
      x: outside.x + off.x,
      z: outside.z + off.z,
      approximate: true,
      elevatorFrom: from,
    });
  }
  add({ id: 'room:escape', name: 'Escape', keys: ['Escape point', 'exit'], ...ESCAPE, approximate: true });
  return places;
}

/** How a place is named on the map and in lists: approximate ones carry "≈". */
export const placeLabel = (p: Pick<SurfacePlace, 'name' | 'approximate'>): string =>
  p.approximate ? `≈ ${p.name}` : p.name;
