import type { MapData, Zone } from '../../../renderer/map-types.ts';
import { floorById } from '../../../renderer/floors.ts';
import type { FloorId } from '../../../renderer/floors.ts';
import { ZONE_SHORT } from '../../../renderer/labels.ts';

// The game builds each zone from one of a few fixed layouts (LCZ 5, HCZ 10, EZ 5); naming it lets
// players recognise a layout from round to round.

/** "LCZ layout 5", or undefined when the map does not say (maps made before it did). */
export function layoutName(map: Pick<MapData, 'layouts'>, zone: Zone): string | undefined {
  const n = map.layouts[zone];
  const short = ZONE_SHORT[zone];
  return n !== undefined && short ? `${short} layout ${n}` : undefined;
}

/** The layouts shown on a floor, e.g. ["HCZ layout 2", "EZ layout 4"]. */
export function floorLayouts(map: Pick<MapData, 'layouts'>, floor: FloorId): string[] {
  return floorById(floor)
    .zones.map((z) => layoutName(map, z))
    .filter((n): n is string => n !== undefined);
}
