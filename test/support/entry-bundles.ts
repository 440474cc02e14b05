// On a Node that cannot strip types (20), the entry points the tests start again and again (the
// API, the generator worker, the bot, `npm start` and its orphan guard) run from one esbuild bundle
// each, built once per run by the global setup, instead of through tsx: tsx resolves and loads each
// of a process's few hundred modules through its loader thread: an API start costs 2.85-3.2
// CPU-seconds that way, 1.2-1.6 from its bundle. What `npm start` spawns from our sources is sent
// to the same bundles (bundle-redirect.ts). Each module keeps its own import.meta (url, dirname,
// filename), so the files it reads beside itself (Lua scripts, data tables, the viewer's dist) are
// found as from the sources; packages stay external, loaded from node_modules as installed. Where
// Node strips types (as the image's does) nothing is bundled: the sources run as they ship.
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { REPO_ROOT } from './repo.ts';

/** Entry points started from bundles, as repo-relative paths. */
export const BUNDLED_ENTRIES = [
  'api/main.ts',
  'generator/main.ts',
  'bot/main.ts',
  // `npm start` and what it starts besides those (bundle-redirect.ts sends its children here).
  'scripts/start.ts',
  'scripts/supervisor/orphan-guard.ts',
] as const;

/** What every test child process imports first (node-args.ts), bundled with the entry points. */
export const CHILD_PRELOADS = [
  'test/support/loopback-guard.ts',
  'test/support/loopback-routes.ts',
  'test/support/bundle-redirect.ts',
] as const;

const OUT_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'seedblock-entries');

/** Where the bundle of `entry` (a repo-relative .ts path) is written. */
export const bundlePath = (entry: string): string => join(OUT_DIR, entry.replace(/\.ts$/, '.mjs'));

const IMPORT_META = /\bimport\.meta\.(url|dirname|filename)\b/g;

/** Gives each of our modules its own import.meta values, as if it were loaded from its file. */
const ownImportMeta: Plugin = {
  name: 'own-import-meta',
  setup(bundle) {
    bundle.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      const meta = { url: pathToFileURL(path).href, dirname: dirname(path), filename: path };
      const source = await readFile(path, 'utf8');
      return {
        contents: source.replace(IMPORT_META, (_, key: keyof typeof meta) => JSON.stringify(meta[key])),
        loader: 'ts',
      };
    });
  },
};

/** Builds every bundle (about 0.3 s); the global setup calls it once a run. */
export async function buildEntryBundles(): Promise<void> {
  // Imported here: every test child loads this module's paths (bundle-redirect.ts), not esbuild.
  const { build } = await import('esbuild');
  await build({
    entryPoints: [...BUNDLED_ENTRIES, ...CHILD_PRELOADS].map((entry) => join(REPO_ROOT, entry)),
    outdir: OUT_DIR,
    outbase: REPO_ROOT,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node}`,
    packages: 'external',
    plugins: [ownImportMeta],
    logLevel: 'error',
  });
}

/** `entry`'s path relative to the checkout, when `script` (relative to `root`) names one. */
export function bundledEntry(script: string, root: string): string | undefined {
  const path = relative(REPO_ROOT, join(root, script));
  return (BUNDLED_ENTRIES as readonly string[]).includes(path) ? path : undefined;
}
