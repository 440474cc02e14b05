import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BLOCK_CAP_MS, RATE_LIMITS, SEED_COOLDOWN_MS } from '../../store/constants.ts';
import { SPEC, specLua } from '../../store/scripts/index.ts';

// The scripts take the spec's constants from their source (the generated table SPEC), not as
// arguments: the table Redis runs must say what SPEC, made of store/constants.ts, says.

let redis: Redis;
beforeAll(() => {
  redis = new Redis(inject('redisUrl'));
});
afterAll(async () => {
  await redis.quit();
});

describe('the spec include', () => {
  it('is SPEC, as Redis reads it, nested tables included', async () => {
    const json = (await redis.eval(`${specLua()}\nreturn cjson.encode(SPEC)`, 0)) as string;
    const read = JSON.parse(json) as typeof SPEC;
    expect(read).toEqual(SPEC);
    // A few by hand, so a table that lost its values to the generator cannot pass as empty.
    expect(read.blockCapMs.http).toBe(BLOCK_CAP_MS.http);
    expect(read.seedCooldownMs).toBe(SEED_COOLDOWN_MS);
    expect(read.rateLimits.reportPerKey.limit).toBe(RATE_LIMITS.reportPerKey.limit);
  });
});

describe("a script's SPEC", () => {
  it('holds just what its code names, and Redis reads it so', async () => {
    // `SPEC.blockCapMs[kind]`: a table indexed by a value comes whole.
    const code = "return SPEC.rateLimits.uncachedMapsPerIp.windowMs + SPEC.blockCapMs['http']";
    const spec = specLua(code, 'x.lua');
    expect(spec).toBe(
      'local SPEC = { blockCapMs = { plugin = 3600000, self = 3600000, http = 1200000 }, ' +
        'rateLimits = { uncachedMapsPerIp = { windowMs = 60000 } } }\n',
    );
    expect(await redis.eval(spec + code, 0)).toBe(RATE_LIMITS.uncachedMapsPerIp.windowMs + BLOCK_CAP_MS.http);
  });

  it('is nothing for a script naming none, and an error for a name of no constant', () => {
    expect(specLua('return 1', 'x.lua')).toBe('');
    expect(() => specLua('return SPEC.rateLimits.nope.limit', 'x.lua')).toThrow(
      'x.lua: SPEC.rateLimits.nope is none of store/constants.ts',
    );
  });
});
