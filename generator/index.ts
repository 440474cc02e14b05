// Public surface of the map generator.

export { generateMap, isValidSeed } from './facility.ts';
export type { BuildOptions as GenerateOptions } from './build-rooms.ts';
export {
  MapSchema,
  RoomSchema,
  SpawnSchema,
  DoorSchema,
  TeslaSchema,
  ConnSchema,
  ZoneSchema,
  RoomShapeSchema,
} from './map-schema.ts';
export type { FacilityMap, Room, Spawn, Door, Tesla, Conn, Zone, RoomShape } from './map-schema.ts';
export { mapSummary, type MapSummary } from './map-summary.ts';
