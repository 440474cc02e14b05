import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MapBodies } from '../store/index.ts';
import { generateMap } from './facility.ts';
import { mapSummary, type MapSummary } from './map-summary.ts';
import { MapSchema } from './map-schema.ts';
import { GENERATOR_VERSION } from './version.ts';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * A seed's map as the API serves it (JSON checked against the public schema) and its list entry.
 * A pure function of the seed: the same seed always gives the same bytes, which is why a map is
 * cache and only its list entry is kept for good.
 */
export function buildMapJson(seed: number): { json: Buffer; summary: MapSummary } {
  const map = MapSchema.parse(generateMap(seed));
  return { json: Buffer.from(JSON.stringify(map)), summary: mapSummary(map) };
}

/**
 * The bodies a map is sent as: brotli and gzip with fixed settings (so a rebuild gives the same
 * bytes, under the same strong ETag: the generator's version and a hash of the JSON). Compressed on libuv's thread pool,
 * which keeps the event loop free while a rebuilt map is compressed. Brotli quality 10: on a map's
 * ~37 KB of JSON it takes ~13 ms for ~4.3 KB, where 9 took ~37 ms for ~4.9 KB and 11 takes ~38 ms
 * for ~4.2 KB; compression is most of a map's generation time.
 */
export async function compressMap(json: Buffer): Promise<MapBodies> {
  const [br, gz] = await Promise.all([
    brotliAsync(json, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 10,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
      },
    }),
    gzipAsync(json, { level: 9 }),
  ]);
  const hash = createHash('sha256').update(json).digest('base64url').slice(0, 32);
  return { etag: `"${GENERATOR_VERSION}.${hash}"`, br, gz };
}
