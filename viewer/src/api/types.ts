// Shapes of the read API bodies the viewer uses beyond the map (spec parts 2.5-2.8): the types of
// the zod schemas the API validates and documents with (api/schemas.ts), imported as types only,
// so none of their code reaches the bundle. The map's own types are the renderer's (map-types.ts).

import type { Job } from '../../../api/schemas.ts';

export type {
  Job,
  OverviewStats as Overview,
  ProtectionStats as Protection,
  ProtectionWindow,
  SeedList as SeedPage,
  SeedListItem as SeedItem,
} from '../../../api/schemas.ts';

export type JobStatus = Job['status'];
