import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { generateMap } from '../../generator/index.ts';
import { DUMP_SEED, REPO_ROOT } from './reference-files.ts';

function run(...args: string[]) {
  return spawnSync('npx', ['tsx', 'generator/cli.ts', ...args], { cwd: REPO_ROOT, encoding: 'utf8' });
}

describe('generator CLI', () => {
  it('prints the map of a seed as one line of JSON and exits 0', () => {
    const res = run(String(DUMP_SEED));
    expect(res.status).toBe(0);
    const lines = res.stdout.split('\n');
    expect(lines).toHaveLength(2); // the JSON line and the empty rest after the final newline
    expect(lines[1]).toBe('');
    expect(lines[0]).toBe(JSON.stringify(generateMap(DUMP_SEED)));
  }, 30_000);

  it.each(['abc', '0', '2147483648'])(
    'rejects seed %s with exit 2 and a message',
    (seed) => {
      const res = run(seed);
      expect(res.status).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toContain('invalid seed');
      expect(res.stderr).toContain('1..2147483647');
    },
    30_000,
  );
});
