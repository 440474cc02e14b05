// Claim codes and reviews at the store level (what the chat bot and the CLI call): the code's
// shape and randomness, its 30 minutes, and concurrent moderator decisions.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normalizeClaimCode } from '../../../store/claim-codes.ts';
import type { ManualClock, Store } from '../../../store/index.ts';
import { testPrefix } from '../../support/api.ts';
import { MINUTE } from '../../support/clock.ts';
import { openTestStore } from '../../support/test-store.ts';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const SHAPE = /^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/;
const T0 = Date.parse('2026-03-01T08:00:00.000Z');

let store: Store;
let moderatorSide: Store; // a second connection, as the bot runs beside the CLI
const open = (prefix: string) => openTestStore({ prefix, name: 'claim-codes-test' });

beforeEach(async () => {
  const prefix = testPrefix();
  [store, moderatorSide] = await Promise.all([open(prefix), open(prefix)]);
  await clock().set(T0);
});
afterEach(async () => {
  await Promise.all([store.close(), moderatorSide.close()]);
});

const clock = () => store.ctx.clock as ManualClock;

describe('claim codes', () => {
  it('are 10 Crockford base32 characters (50 random bits >= 40) shown as XXXXX-XXXXX, valid 30 minutes', async () => {
    const issued = await store.issueClaimCode({ ip: '198.51.100.20', port: 7777, issuedBy: 'discord:1' });
    expect(issued).toEqual({
      code: expect.stringMatching(SHAPE),
      expiresAt: new Date(T0 + 30 * MINUTE).toISOString(),
      expectedIp: '198.51.100.20',
      expectedPort: 7777,
    });
    expect(CROCKFORD.length ** 10).toBeGreaterThanOrEqual(2 ** 40);
    expect(await store.issueClaimCode()).toMatchObject({ expectedIp: null, expectedPort: null });
  });

  it('1000 issued codes are unique and use the whole alphabet evenly', async () => {
    const codes = await Promise.all(Array.from({ length: 1000 }, () => store.issueClaimCode()));
    const normalized = codes.map((c) => c.code.replace('-', ''));
    expect(new Set(normalized).size).toBe(1000);
    for (const c of normalized) expect(normalizeClaimCode(c)).toBe(c);
    // 10,000 characters over 32 symbols: about 312 each. Every position carries a full 5 bits
    // only if no symbol is missing or far off (a 4-bit draw would leave half of them unused).
    const counts = new Map<string, number>();
    for (const ch of normalized.join('')) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect([...counts.keys()].sort().join('')).toBe(CROCKFORD);
    for (const n of counts.values()) expect(n).toBeGreaterThan(200);
    // The first and the last character vary too (no fixed check digit eating the entropy).
    expect(new Set(normalized.map((c) => c[0])).size).toBe(32);
    expect(new Set(normalized.map((c) => c[9])).size).toBe(32);
    const stored = await store.ctx.redis.keys(`${store.ctx.prefix}code:*`);
    expect(stored).toHaveLength(1000);
  });

  it('are usable until 30 minutes after issue, not at 30 minutes', async () => {
    const a = await store.issueClaimCode();
    const b = await store.issueClaimCode();
    await clock().set(T0 + 30 * MINUTE - 1);
    expect(await store.claimWithCode({ code: a.code, ip: '198.51.100.20', port: 7777 })).toMatchObject({
      status: 'verified',
    });
    await clock().set(T0 + 30 * MINUTE);
    expect(await store.claimWithCode({ code: b.code, ip: '198.51.100.20', port: 7778 })).toEqual({
      status: 'invalid code',
    });
  });

  it('stay stored (as invalid) a day past expiry, then are cleaned up', async () => {
    const { code } = await store.issueClaimCode();
    const ttl = await store.ctx.redis.pttl(`${store.ctx.prefix}code:${code.replace('-', '')}`);
    expect(ttl).toBeGreaterThan(30 * MINUTE + 24 * 60 * MINUTE - 5_000);
    expect(ttl).toBeLessThanOrEqual(30 * MINUTE + 24 * 60 * MINUTE);
  });

  it('normalize forgivingly and refuse what cannot be a code', () => {
    expect(normalizeClaimCode('abcde-fghjk')).toBe('ABCDEFGHJK');
    expect(normalizeClaimCode(' o1lI0 - O1LI0 ')).toBe('0111001110');
    for (const bad of ['', 'ABCDE-FGHJ', 'ABCDE-FGHJKM', 'ABCDE-FGHJU', 'ABCDE_FGHJK', 'ÄBCDE-FGHJK']) {
      expect(normalizeClaimCode(bad)).toBeNull();
    }
  });
});

describe('decideReview', () => {
  async function pendingReview(): Promise<string> {
    const { code } = await store.issueClaimCode({ ip: '198.51.100.20', port: 7777 });
    expect(await store.claimWithCode({ code, ip: '198.51.100.21', port: 7777 })).toMatchObject({
      status: 'review',
    });
    const reviews = await store.listReviews();
    return reviews[reviews.length - 1]!.id;
  }

  it('two decisions at once: exactly one is decided, the other learns who decided what', async () => {
    for (let round = 0; round < 20; round++) {
      const id = await pendingReview();
      const [a, b] = await Promise.all([
        store.decideReview({ id, decision: 'approved', moderator: 'alice' }),
        moderatorSide.decideReview({ id, decision: 'rejected', moderator: 'bob' }),
      ]);
      const outcomes = [a, b].map((d) => d.outcome).sort();
      expect(outcomes).toEqual(['already', 'decided']);
      const [winner, loser] = a.outcome === 'decided' ? [a, b] : [b, a];
      if (winner.outcome === 'unknown') throw new Error('unreachable');
      expect(loser).toEqual({ ...winner, outcome: 'already' });
      const stored = await store.getReview(id);
      expect(stored).toMatchObject({ status: winner.decision, decidedBy: winner.moderator });
    }
    expect(await store.listReviews()).toEqual([]);
  });

  it('the same moderator twice, and an unknown id', async () => {
    const id = await pendingReview();
    expect(await store.decideReview({ id, decision: 'rejected', moderator: 'carol' })).toEqual({
      outcome: 'decided',
      decision: 'rejected',
      moderator: 'carol',
    });
    expect(await store.decideReview({ id, decision: 'approved', moderator: 'carol' })).toEqual({
      outcome: 'already',
      decision: 'rejected',
      moderator: 'carol',
    });
    expect(await store.decideReview({ id: 'no-such-review', decision: 'approved', moderator: 'x' })).toEqual({
      outcome: 'unknown',
    });
  });
});
