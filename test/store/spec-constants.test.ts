import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BLOCK_CAP_MS, RATE_LIMITS, SEED_COOLDOWN_MS } from '../../store/constants.ts';
import { SPEC, SPEC_INCLUDE } from '../../store/scripts/index.ts';

// The report scripts take the spec's constants from their source (the generated include `spec`),
// not as arguments: the table Redis runs must say what SPEC, made of store/constants.ts, says.

let redis: Redis;
beforeAll(() => {
  redis = new Redis(inject('redisUrl'));
});
afterAll(async () => {
  await redis.quit();
});

describe('the spec include', () => {
  it('is SPEC, as Redis reads it, nested tables included', async () => {
    const json = (await redis.eval(`${SPEC_INCLUDE}\nreturn cjson.encode(SPEC)`, 0)) as string;
    const read = JSON.parse(json) as typeof SPEC;
    expect(read).toEqual(SPEC);
    // A few by hand, so a table that lost its values to the generator cannot pass as empty.
    expect(read.blockCapMs.http).toBe(BLOCK_CAP_MS.http);
    expect(read.seedCooldownMs).toBe(SEED_COOLDOWN_MS);
    expect(read.reportPerKey.limit).toBe(RATE_LIMITS.reportPerKey.limit);
  });
});
