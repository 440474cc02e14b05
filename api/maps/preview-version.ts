import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { GENERATOR_VERSION } from '../../generator/version.ts';

// The version of the link-preview picture, and so its ETag: a seed's picture is drawn from its map
// (GENERATOR_VERSION) by preview-image.ts and the viewer code it imports, on @napi-rs/canvas. A
// hash of all of them, computed at start from the files themselves (as the generator's version
// is), so a change to the drawing never ships under an old ETag, and no list of files has to be
// kept: the imports are followed. Knowing the ETag before drawing is what lets a revalidation or a
// HEAD answer without a render. The host's fonts are not in it: two hosts may draw the same
// picture with other glyphs, so the ETag is weak (the same picture, not the same bytes).

const IMPORTS = [
  /^(?:import|export)\s+(?!type\s)[^;]*?from\s+'(\.[^']+)'/gm, // import { x } from './x.ts'
  /^import\s+'(\.[^']+)'/gm, // import './x.ts'
  /\bimport\('(\.[^']+)'\)/g, // await import('./x.ts')
];

/** `entry` and the files it runs: its relative imports that are not type-only, followed. */
export function sourcesOf(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  if (!entry.endsWith('.ts')) return seen;
  const source = readFileSync(entry, 'utf8');
  for (const pattern of IMPORTS) {
    for (const [, path] of source.matchAll(pattern)) sourcesOf(join(dirname(entry), path!), seen);
  }
  return seen;
}

const ROOT = join(import.meta.dirname, '../..');
const canvasVersion = (createRequire(import.meta.url)('@napi-rs/canvas/package.json') as { version: string })
  .version;

function previewVersion(): string {
  const hash = createHash('sha256').update(`${GENERATOR_VERSION}\0canvas ${canvasVersion}\0`);
  const files = [...sourcesOf(join(import.meta.dirname, 'preview-image.ts'))].sort();
  for (const file of files) {
    hash
      .update(`${relative(ROOT, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  }
  return hash.digest('base64url').slice(0, 12);
}

/** Part of every preview picture's ETag. */
export const PREVIEW_VERSION = previewVersion();

/** The ETag of a seed's picture: known without drawing it. */
export const previewEtag = (seed: number): string => `W/"${PREVIEW_VERSION}.${seed}"`;
