// Issue 29.7: the generator's version is a hash of the code that decides a map's bytes, and of
// nothing else. Edits are made to a copy of generator/ in a temp folder, never to the tree.
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GENERATOR_VERSION, MAP_FILES, versionOf } from '../../generator/version.ts';
import { REPO_ROOT } from '../support/repo.ts';

const GENERATOR = join(REPO_ROOT, 'generator');

/**
 * The files of generator/ that `entry` runs: its imports that are not type-only, followed
 * through generator/, and the files read beside a module (`new URL('./…', import.meta.url)`).
 */
function runsFrom(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  if (!entry.endsWith('.ts')) return seen;
  const source = readFileSync(join(GENERATOR, entry), 'utf8');
  const here = dirname(entry);
  const imports = [...source.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'(\.[^']+)'/gm)];
  const reads = [...source.matchAll(/new URL\('(\.[^']+)', import\.meta\.url\)/g)];
  for (const [, path] of [...imports, ...reads]) {
    const file = normalize(join(here, path!));
    if (!relative(GENERATOR, join(GENERATOR, file)).startsWith('..')) runsFrom(file, seen);
  }
  return seen;
}

describe('the generator version', () => {
  it('hashes exactly the files buildMapJson and compressMap run (map-bytes.ts and what it imports)', () => {
    const runs = runsFrom('map-bytes.ts');
    runs.delete('version.ts'); // the hash itself
    expect([...runs].sort()).toEqual([...MAP_FILES].sort());
    for (const notMap of ['worker.ts', 'reindex.ts', 'main.ts', 'cli.ts', 'derive-tables.ts']) {
      expect(MAP_FILES).not.toContain(notMap);
    }
  });

  describe('of a copy of generator/', () => {
    let copy: string;
    beforeEach(() => {
      copy = join(mkdtempSync(join(tmpdir(), 'seedblock-version-')), 'generator');
      cpSync(GENERATOR, copy, { recursive: true });
    });
    afterEach(() => rmSync(dirname(copy), { recursive: true, force: true }));

    it('is the running version while nothing changed', () => {
      expect(versionOf(copy)).toBe(GENERATOR_VERSION);
    });

    it.each(['worker.ts', 'reindex.ts', 'main.ts', 'cli.ts', 'derive-tables.ts', 'derive-features.ts'])(
      'editing %s leaves it unchanged',
      (file) => {
        appendFileSync(join(copy, file), '\nexport const edited = 1;\n');
        expect(versionOf(copy)).toBe(GENERATOR_VERSION);
      },
    );

    it('editing a layout table changes it', () => {
      const tsv = join(copy, 'data/layouts.tsv');
      const text = readFileSync(tsv, 'utf8');
      const edited = text.replace(/\d/, (d) => String((Number(d) + 1) % 10));
      expect(edited).not.toBe(text);
      writeFileSync(tsv, edited);
      expect(versionOf(copy)).not.toBe(GENERATOR_VERSION);
    });

    it.each(MAP_FILES)('editing %s changes it', (file) => {
      appendFileSync(join(copy, file), '\n');
      expect(versionOf(copy)).not.toBe(GENERATOR_VERSION);
    });
  });
});
