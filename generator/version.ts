import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// The generator's version: a hash of every file under generator/ (sources and data) except the
// few that cannot change a map's bytes. Computed at start from the files themselves, so no change
// to the output can ship under an old version: there is no constant to forget to bump. A change
// to an excluded file or a comment costs at most one rebuild of each map read.

/** Files that run the generator but do not shape its output. */
const NOT_OUTPUT = new Set(['README.md', 'cli.ts', 'main.ts', 'worker.ts']);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)]))
    .sort();
}

/** The version of the generator whose files are under `root`. */
export function versionOf(root: string): string {
  const hash = createHash('sha256');
  for (const file of files(root)) {
    const name = relative(root, file);
    if (NOT_OUTPUT.has(name)) continue;
    hash.update(`${name}\0`).update(readFileSync(file)).update('\0');
  }
  return hash.digest('base64url').slice(0, 12);
}

/** Part of every map's ETag; the map cache serves only entries of this version (read-map.lua). */
export const GENERATOR_VERSION = versionOf(import.meta.dirname);
