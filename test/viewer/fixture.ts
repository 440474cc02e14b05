import { readFileSync } from 'node:fs';
import { parseMap } from '../../renderer/parse-map.ts';
import type { MapData } from '../../renderer/map-types.ts';

/** Raw body of the reference map (seed 224593721), exactly as GET /maps/{seed} answers 200. */
export const rawMap: unknown = JSON.parse(
  readFileSync(new URL('./fixtures/map-224593721.json', import.meta.url), 'utf8'),
);

export const referenceMap: MapData = parseMap(rawMap);
