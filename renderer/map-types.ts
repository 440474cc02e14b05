// The map as the renderer draws it (spec part 2.4): the types of the zod schema the API validates
// and documents the map with (generator/map-schema.ts), imported as types only, so none of its
// code reaches the viewer's bundle or the link preview.

import type { FacilityMap, RoomShape, Zone } from '../generator/map-schema.ts';

export type { Conn, Door, Room, Spawn, Tesla, Zone } from '../generator/map-schema.ts';

export type Shape = RoomShape;

/**
 * A map as the renderer holds it (parse-map.ts): the API's map without the fields it does not
 * draw, and `layouts` always there, by zone (empty for maps made before layouts existed).
 */
export type MapData = Pick<FacilityMap, 'seed' | 'rooms' | 'spawns' | 'doors' | 'teslas'> & {
  layouts: Partial<Record<Zone, number>>;
};
