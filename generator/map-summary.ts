import type { FacilityMap } from './map-schema.ts';

export interface MapSummary {
  roomCount: number;
  spawns: number;
  /** Always 0: the public map carries no markers. */
  markers: number;
}

export function mapSummary(map: FacilityMap): MapSummary {
  return { roomCount: map.rooms.length, spawns: map.spawns.length, markers: map.markers.length };
}
