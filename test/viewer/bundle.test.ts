import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildViewer } from '../../viewer/build.ts';
import { DIST_DIR } from '../../viewer/dist-dir.ts';
import { ensureViewerBuilt } from '../support/e2e-stack.ts';

// Issue 14.7: the shipped JavaScript stays under 40 KB gzipped, with no framework in it.
const LIMIT = 40 * 1024;

describe('the built viewer', () => {
  it('ships under 40 KB of gzipped JavaScript, with br and gzip copies and no source map', async () => {
    await ensureViewerBuilt();
    const { js, css } = JSON.parse(readFileSync(join(DIST_DIR, 'manifest.json'), 'utf8')) as {
      js: string;
      css: string;
    };
    const assets = join(DIST_DIR, 'assets');
    const code = readFileSync(join(assets, js));
    const gzipped = gzipSync(code, { level: 9 }).length;
    console.log(`viewer JS: ${code.length} bytes, ${gzipped} gzipped`);
    expect(gzipped).toBeLessThan(LIMIT);
    for (const file of [js, css]) {
      const built = readFileSync(join(assets, file));
      expect(brotliDecompressSync(readFileSync(join(assets, `${file}.br`))).equals(built)).toBe(true);
      expect(gunzipSync(readFileSync(join(assets, `${file}.gz`))).equals(built)).toBe(true);
      expect(built.toString()).not.toContain('sourceMappingURL');
    }
    expect(readdirSync(assets).filter((f) => f.endsWith('.map'))).toEqual([]);
  });

  it('with source maps asked for, maps only our own source', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'viewer-maps-'));
    try {
      const { files } = await buildViewer({ distDir: dist, sourceMaps: true });
      const mapFile = join(dist, 'assets', `${files[0]}.map`);
      expect(existsSync(mapFile)).toBe(true);
      // The source map lists every input of the bundle: nothing from node_modules.
      const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[] };
      expect(map.sources.length).toBeGreaterThan(10);
      const ours = [join(DIST_DIR, '..', 'src'), join(DIST_DIR, '..', '..', 'renderer')];
      const inputs = map.sources.map((s) => resolve(dist, 'assets', s));
      expect(inputs.filter((f) => !ours.some((dir) => f.startsWith(`${dir}/`)))).toEqual([]);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
