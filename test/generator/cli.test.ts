import { describe, expect, it } from 'vitest';
import { generateMap } from '../../generator/index.ts';
import { runTs } from '../support/child.ts';
import { DUMP_SEED } from './reference-files.ts';

const run = (...args: string[]) => runTs('generator/cli.ts', args, {}, 60_000);

describe('generator CLI', () => {
  it('prints the map of a seed as one line of JSON and exits 0', async () => {
    const res = await run(String(DUMP_SEED));
    expect(res.code).toBe(0);
    const lines = res.stdout.split('\n');
    expect(lines).toHaveLength(2); // the JSON line and the empty rest after the final newline
    expect(lines[1]).toBe('');
    expect(lines[0]).toBe(JSON.stringify(generateMap(DUMP_SEED)));
  });

  it.each(['abc', '0', '2147483648'])('rejects seed %s with exit 2 and a message', async (seed) => {
    const res = await run(seed);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('invalid seed');
    expect(res.stderr).toContain('1..2147483647');
  });
});
