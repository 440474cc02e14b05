// Shapes of the read API bodies the viewer uses (spec parts 2.4-2.8): the types of the zod schemas
// the API validates and documents with (generator/map-schema.ts, api/schemas.ts), imported as
// types only, so none of their code reaches the bundle.

import type { FacilityMap, RoomShape, Zone } from '../../../generator/map-schema.ts';
import type { Job } from '../../../api/schemas.ts';

export type { Conn, Door, Room, Spawn, Tesla, Zone } from '../../../generator/map-schema.ts';
export type {
  Job,
  OverviewStats as Overview,
  ProtectionStats as Protection,
  ProtectionWindow,
  SeedList as SeedPage,
  SeedListItem as SeedItem,
} from '../../../api/schemas.ts';

export type Shape = RoomShape;
export type JobStatus = Job['status'];

/**
 * A map as the viewer holds it (parse-map.ts): the API's map without the fields the viewer does not
 * draw, and `layouts` always there, by zone (empty for maps made before layouts existed).
 */
export type MapData = Pick<FacilityMap, 'seed' | 'rooms' | 'spawns' | 'doors' | 'teslas'> & {
  layouts: Partial<Record<Zone, number>>;
};
