import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  BLOCK_CAP_MS,
  DETECTION_PURGE_MS,
  PROTECTION_RECENT_MAX,
  RATE_LIMITS,
  SEED_COOLDOWN_MS,
  SELF_CLAIM_UNUSED_LAPSE_MS,
  SERVER_GAP_MS,
} from '../../store/constants.ts';
import { SPEC_INCLUDE } from '../../store/scripts/index.ts';

// The report scripts take the spec's constants from their source (the generated include `spec`),
// not as arguments: the table Redis runs must say what store/constants.ts says.

let redis: Redis;
beforeAll(() => {
  redis = new Redis(inject('redisUrl'));
});
afterAll(async () => {
  await redis.quit();
});

describe('the spec include', () => {
  it('is the constants of store/constants.ts, as Redis reads them', async () => {
    const json = (await redis.eval(`${SPEC_INCLUDE}\nreturn cjson.encode(SPEC)`, 0)) as string;
    expect(JSON.parse(json)).toEqual({
      blockCapMs: BLOCK_CAP_MS,
      seedCooldownMs: SEED_COOLDOWN_MS,
      serverGapMs: SERVER_GAP_MS,
      detectionPurgeMs: DETECTION_PURGE_MS,
      protectionRecentMax: PROTECTION_RECENT_MAX,
      selfClaimUnusedLapseMs: SELF_CLAIM_UNUSED_LAPSE_MS,
      reportPerIp: RATE_LIMITS.reportPerIp,
      reportPerKey: RATE_LIMITS.reportPerKey,
    });
  });
});
