// Builds the viewer: bundles src/main.ts and src/app.css with content hashes into dist/assets,
// each with br and gzip copies, and writes dist/index.html and dist/404.html. Run with
// `tsx viewer/build.ts` (add --dev for no minify). Source maps only with VIEWER_SOURCE_MAPS=1.

import { build } from 'esbuild';
import type { Metafile } from 'esbuild';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitAtStart, loadSettings } from '../runtime/config.ts';
import { DIST_DIR } from './dist-dir.ts';
import { indexHtml, notFoundHtml } from './index-html.ts';
import { precompress } from './precompress.ts';

const here = dirname(fileURLToPath(import.meta.url));

function outputFor(meta: Metafile, entry: string): string {
  for (const [file, out] of Object.entries(meta.outputs)) {
    if (out.entryPoint && relative(here, join(process.cwd(), out.entryPoint)) === entry)
      return basename(file);
  }
  throw new Error(`no output for ${entry}`);
}

export interface BuildOptions {
  minify?: boolean;
  /** Emit linked source maps (VIEWER_SOURCE_MAPS); off, none is written at all. */
  sourceMaps?: boolean;
  distDir?: string;
}

export interface BuildResult {
  ms: number;
  files: string[];
  /** Bytes of all the JS and CSS together, as built and in each coding. */
  bytes: { identity: number; br: number; gz: number };
}

export async function buildViewer(opts: BuildOptions = {}): Promise<BuildResult> {
  const started = performance.now();
  const distDir = opts.distDir ?? DIST_DIR;
  const assetsDir = join(distDir, 'assets');
  // Clean out old hashed files so dist holds only the current build.
  await rm(distDir, { recursive: true, force: true });
  await mkdir(assetsDir, { recursive: true });
  const result = await build({
    absWorkingDir: process.cwd(),
    entryPoints: {
      main: join(here, 'src/main.ts'),
      style: join(here, 'src/app.css'),
      favicon: join(here, 'favicon.svg'),
    },
    loader: { '.svg': 'copy' },
    outdir: assetsDir,
    entryNames: '[name]-[hash]',
    // The seed list and statistics pages are loaded when opened (see src/main.ts).
    splitting: true,
    chunkNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
    minify: opts.minify ?? true,
    sourcemap: opts.sourceMaps ? 'linked' : false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const assets = {
    js: outputFor(result.metafile, 'src/main.ts'),
    css: outputFor(result.metafile, 'src/app.css'),
    icon: outputFor(result.metafile, 'favicon.svg'),
  };
  const texts = Object.keys(result.metafile.outputs).filter((f) => /\.(js|css)$/.test(f));
  const sizes = await Promise.all(texts.map((f) => precompress(join(process.cwd(), f))));
  const bytes = { identity: 0, br: 0, gz: 0 };
  for (const s of sizes) for (const k of ['identity', 'br', 'gz'] as const) bytes[k] += s[k];
  await writeFile(join(distDir, 'index.html'), indexHtml(assets));
  await writeFile(join(distDir, '404.html'), notFoundHtml(assets));
  await writeFile(join(distDir, 'manifest.json'), JSON.stringify(assets, null, 2) + '\n');
  return { ms: performance.now() - started, files: Object.values(assets), bytes };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dev = process.argv.includes('--dev');
  // Only its own setting: `npm start` runs this first, and the service's settings are checked
  // (with one message) by what runs them.
  let sourceMaps: boolean;
  try {
    sourceMaps = loadSettings(['VIEWER_SOURCE_MAPS']).VIEWER_SOURCE_MAPS;
  } catch (err) {
    exitAtStart(err);
  }
  const { ms, files, bytes } = await buildViewer({ minify: !dev, sourceMaps });
  console.log(
    `viewer built in ${ms.toFixed(0)} ms: ${files.join(', ')} → ${relative(process.cwd(), DIST_DIR)}` +
      ` (JS + CSS: ${bytes.identity} B, ${bytes.br} B br, ${bytes.gz} B gzip)`,
  );
}
