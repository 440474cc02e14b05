import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DIST_DIR } from '../../viewer/dist-dir.ts';
import { ensureViewerBuilt } from '../support/e2e-stack.ts';

// Issue 14.7: the shipped JavaScript stays under 40 KB gzipped, with no framework in it.
const LIMIT = 40 * 1024;

describe('the built viewer', () => {
  it('ships under 40 KB of gzipped JavaScript, all of it our own source', async () => {
    await ensureViewerBuilt();
    const { js } = JSON.parse(readFileSync(join(DIST_DIR, 'manifest.json'), 'utf8')) as { js: string };
    const code = readFileSync(join(DIST_DIR, 'assets', js));
    const gzipped = gzipSync(code, { level: 9 }).length;
    console.log(`viewer JS: ${code.length} bytes, ${gzipped} gzipped`);
    expect(gzipped).toBeLessThan(LIMIT);
    // The source map lists every input of the bundle: nothing from node_modules.
    const map = JSON.parse(readFileSync(join(DIST_DIR, 'assets', `${js}.map`), 'utf8')) as {
      sources: string[];
    };
    expect(map.sources.length).toBeGreaterThan(10);
    const src = join(DIST_DIR, '..', 'src');
    const files = map.sources.map((s) => resolve(DIST_DIR, 'assets', s));
    expect(files.filter((f) => !f.startsWith(`${src}/`))).toEqual([]);
  });
});
