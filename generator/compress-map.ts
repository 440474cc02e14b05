import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { GeneratedMap } from '../store/index.ts';
import { generateMap } from './facility.ts';
import { mapSummary } from './map-summary.ts';
import { MapSchema } from './map-schema.ts';

/**
 * A seed's map as the API serves it: the JSON checked against the public schema, compressed
 * once here (brotli and gzip) so reads only send stored bytes, with a strong ETag of the JSON.
 */
export function buildStoredMap(seed: number): GeneratedMap {
  const map = MapSchema.parse(generateMap(seed));
  const json = Buffer.from(JSON.stringify(map));
  return {
    seed,
    etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 32)}"`,
    br: brotliCompressSync(json, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
      },
    }),
    gz: gzipSync(json, { level: 9 }),
    ...mapSummary(map),
  };
}
