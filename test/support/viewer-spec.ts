// What the API says the viewer should draw, read from the spec (part 2.4) and the map JSON rather
// than from the viewer's own code, so the e2e suites check the viewer against the contract.
import type { MapData } from '../../renderer/map-types.ts';

export type FloorId = 'lcz' | 'hcz' | 'surface';
export const FLOOR_IDS: readonly FloorId[] = ['lcz', 'hcz', 'surface'];
/** Spec 2.4: "y is the floor: 100 for light zone, -100 for heavy zone and entrance"; surface above. */
const FLOOR_Y: Record<FloorId, number> = { lcz: 100, hcz: -100, surface: 300 };
const ZONE_FLOOR: Record<string, FloorId | undefined> = {
  LightContainment: 'lcz',
  HeavyContainment: 'hcz',
  Entrance: 'hcz',
  Surface: 'surface',
};

/** The floor a point is on: the nearest floor height, within 150 m (Pocket Dimension: none). */
export function floorOfY(y: number): FloorId | undefined {
  let best: FloorId | undefined;
  for (const f of FLOOR_IDS) {
    const d = Math.abs(y - FLOOR_Y[f]);
    if (d <= 150 && (best === undefined || d < Math.abs(y - FLOOR_Y[best]))) best = f;
  }
  return best;
}
export const floorOfThing = (t: { zone: string; y: number }) => ZONE_FLOOR[t.zone] ?? floorOfY(t.y);

export function onFloor(map: MapData, floor: FloorId) {
  const items = map.spawns.filter((s) => s.kind === 'item' && floorOfY(s.y) === floor);
  const structures = map.spawns.filter((s) => s.kind === 'structure' && floorOfY(s.y) === floor);
  return {
    rooms: map.rooms.filter((r) => floorOfThing(r) === floor),
    doors: map.doors.filter((d) => floorOfThing(d) === floor),
    teslas: map.teslas.filter((t) => floorOfY(t.y) === floor),
    items,
    structures,
  };
}

/** The most common value of `key` among `list` (ties: first seen). */
export function mostCommon<T>(list: readonly T[], key: (t: T) => string[]): string {
  const counts = new Map<string, number>();
  for (const t of list) for (const k of key(t)) counts.set(k, (counts.get(k) ?? 0) + 1);
  const best = [...counts].sort((a, b) => b[1] - a[1])[0];
  if (!best) throw new Error('empty list');
  return best[0];
}
export const itemTypeOf = (s: { cat: string }) => [s.cat.replace(/^item:/, '')];
export const structTypesOf = (s: { cat: string }) => s.cat.split('|').filter(Boolean);
/** A real item type to filter by (not `item:group`, a random pick among several). */
export const commonItemType = (items: readonly { cat: string }[]) =>
  mostCommon(
    items.filter((s) => s.cat !== 'item:group'),
    itemTypeOf,
  );
