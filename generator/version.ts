import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The generator's version: a hash of the files that decide a map's bytes, listed here, and of
// nothing else. Computed at start from the files themselves, so no change to the output can ship
// under an old version: there is no constant to forget to bump. What runs the generator (the
// worker, reindex, the CLI) and the offline tooling (derive-*) are not in it: changing them keeps
// every cached map and its ETag. A test checks the list against what map-bytes.ts imports.

/** The map code and its data, relative to generator/: everything buildMapJson and compressMap run. */
export const MAP_FILES = [
  'map-bytes.ts',
  'map-schema.ts',
  'map-summary.ts',
  'facility.ts',
  'facility-draws.ts',
  'zone-generator.ts',
  'build-rooms.ts',
  'place-features.ts',
  'layouts.ts',
  'local-frame.ts',
  'dotnet-random.ts',
  'data/room-templates.ts',
  'data/layouts.tsv',
  'data/prefab-features.json',
] as const;

/** The version of the generator whose files are under `root`. */
export function versionOf(root: string): string {
  const hash = createHash('sha256');
  for (const name of MAP_FILES) {
    hash
      .update(`${name}\0`)
      .update(readFileSync(join(root, name)))
      .update('\0');
  }
  return hash.digest('base64url').slice(0, 12);
}

/** Part of every map's ETag; the map cache serves only entries of this version (read-map.lua). */
export const GENERATOR_VERSION = versionOf(import.meta.dirname);
