// Builds the viewer: bundles src/main.ts and src/styles.css with content hashes into dist/assets
// and writes dist/index.html. Run with `tsx viewer/build.ts` (add --dev for no minify).

import { build } from 'esbuild';
import type { Metafile } from 'esbuild';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST_DIR } from './dist-dir.ts';
import { indexHtml } from './index-html.ts';

const here = dirname(fileURLToPath(import.meta.url));
const ASSETS_DIR = join(DIST_DIR, 'assets');

function outputFor(meta: Metafile, entry: string): string {
  for (const [file, out] of Object.entries(meta.outputs)) {
    if (out.entryPoint && relative(here, join(process.cwd(), out.entryPoint)) === entry)
      return basename(file);
  }
  throw new Error(`no output for ${entry}`);
}

export async function buildViewer(opts: { minify?: boolean } = {}): Promise<{ ms: number; files: string[] }> {
  const started = performance.now();
  // Clean out old hashed files so dist holds only the current build.
  await rm(DIST_DIR, { recursive: true, force: true });
  await mkdir(ASSETS_DIR, { recursive: true });
  const result = await build({
    absWorkingDir: process.cwd(),
    entryPoints: {
      main: join(here, 'src/main.ts'),
      style: join(here, 'src/styles.css'),
      favicon: join(here, 'src/favicon.svg'),
    },
    loader: { '.svg': 'copy' },
    outdir: ASSETS_DIR,
    entryNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
    minify: opts.minify ?? true,
    sourcemap: 'linked',
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const assets = {
    js: outputFor(result.metafile, 'src/main.ts'),
    css: outputFor(result.metafile, 'src/styles.css'),
    icon: outputFor(result.metafile, 'src/favicon.svg'),
  };
  await writeFile(join(DIST_DIR, 'index.html'), indexHtml(assets));
  await writeFile(join(DIST_DIR, 'manifest.json'), JSON.stringify(assets, null, 2) + '\n');
  return { ms: performance.now() - started, files: Object.values(assets) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dev = process.argv.includes('--dev');
  const { ms, files } = await buildViewer({ minify: !dev });
  console.log(
    `viewer built in ${ms.toFixed(0)} ms: ${files.join(', ')} → ${relative(process.cwd(), DIST_DIR)}`,
  );
}
