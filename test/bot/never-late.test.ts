// Issue 33, item 7: never late. A write the store acknowledges only once a replica has it (here a
// blocklist addition, REDIS_REPLICAS_ACK=1) may wait REDIS_REPLICAS_ACK_TIMEOUT_MS, past Discord's
// 3 s for a first answer. `npm run bot`, a real process, on a primary whose replica reads it
// through a proxy that holds the replication link: every command that writes is deferred
// (ephemeral) at once and its answer edited in once the write is done, or failed ("try again").
import { InteractionResponseType, MessageFlags } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRY_AGAIN } from '../../bot/replies.ts';
import { startHeldReplication } from '../support/held-replication.ts';
import type { HoldingProxy } from '../support/holding-proxy.ts';
import type { PrivateRedis } from '../support/private-redis.ts';
import { interact, logged, startBotProcess, type Answer, type BotProcess } from './support/bot-process.ts';
import { buttonPress, member, option, slashCommand } from './support/interactions.ts';
import { MODERATOR_ROLE_ID, REVIEW_CHANNEL_ID } from './support/snowflakes.ts';

/** Longer than Discord waits for a first answer (3 s), as the setting allows (at most 5 s). */
const ACK_TIMEOUT_MS = 4_000;
/** Discord's deadline for the first answer to an interaction. */
const DISCORD_DEADLINE_MS = 3_000;

let primary: PrivateRedis;
let proxy: HoldingProxy;
let replica: PrivateRedis;
let stopReplication: (() => Promise<void>) | undefined;
let p: BotProcess;

beforeAll(async () => {
  ({ primary, proxy, replica, stop: stopReplication } = await startHeldReplication('bot-ack'));
  p = await startBotProcess({
    REDIS_URL: primary.url,
    REDIS_REPLICAS_ACK: '1',
    REDIS_REPLICAS_ACK_TIMEOUT_MS: String(ACK_TIMEOUT_MS),
  });
}, 90_000);
afterAll(async () => {
  proxy?.release();
  expect(await p?.close()).toEqual({ code: 0, signal: null });
  await stopReplication?.();
});

const moderator = member('mod', { roles: [MODERATOR_ROLE_ID] });
const addSeed = (seed: number) =>
  interact(
    p,
    slashCommand('blocklist', moderator, [option.subcommand('add', [option.integer('seed', seed)])]),
  );

/** Deferred (ephemeral) well within Discord's deadline, whatever the write then takes. */
function expectDeferredInTime(answer: Answer) {
  expect(answer.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
  expect(answer.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
  expect(answer.respondedAt - answer.dispatchedAt).toBeLessThan(DISCORD_DEADLINE_MS);
}

describe('a write that waits on a held replication link', () => {
  it('is deferred at once; once the wait fails, the answer says to try again; the retry after the link is back confirms it', async () => {
    proxy.hold();
    const held = await addSeed(731_001);
    expectDeferredInTime(held);
    // The store waited for the replica as long as it may, then gave up: the user is told.
    expect(held.answeredAt - held.dispatchedAt).toBeGreaterThanOrEqual(ACK_TIMEOUT_MS - 100);
    expect(held.content).toBe(TRY_AGAIN);
    // The log line travels by the bot's stdout, the answer by HTTP: wait for the line.
    const [failed] = await logged(p, /^interaction failed: the store is unavailable$/);
    expect(failed).toMatchObject({ level: 40, interaction: '/blocklist' });
    expect(p.logs().filter((l) => l.level === 50)).toEqual([]);

    proxy.release();
    const retried = await addSeed(731_001);
    expectDeferredInTime(retried);
    // The first attempt's write stayed; now the replica confirms it.
    expect(retried.content).toBe('Seed 731001 was already on the blocklist.');
    expect(await replica.observer.sismember(`${p.prefix}blocklist`, '731001')).toBe(1);
  });

  it.each([
    ['/claim', () => slashCommand('claim', member('owner'))],
    ['/httpkey', () => slashCommand('httpkey', member('toolmaker'))],
    [
      '/minimum-version set',
      () =>
        slashCommand('minimum-version', moderator, [
          option.subcommand('set', [option.string('version', '1.2.0')]),
        ]),
    ],
    ['/revoke', () => slashCommand('revoke', moderator, [option.string('server-id', crypto.randomUUID())])],
  ])('%s, another write, is deferred at once too while the link is held', async (_name, payload) => {
    proxy.hold();
    try {
      const answer = await interact(p, payload());
      expectDeferredInTime(answer);
      // Whether this store call waits for the replica is the store's business: the answer is
      // either the command's own or "try again", never a dead token.
      expect(answer.content).not.toBe('');
    } finally {
      proxy.release();
    }
  });

  it('a button press that writes (approve, confirmed reject, revoke, cancel) defers its update at once too', async () => {
    const owner = member('owner');
    const { serverId } = await p.store.issueHttpKey({ owner: owner.id });
    const { code } = await p.store.issueClaimCode({ issuedBy: owner.id });
    const reviews = [];
    for (const port of [7001, 7002]) {
      const asked = await p.store.issueClaimCode({ ip: '203.0.113.5', port });
      await p.store.claimWithCode({ code: asked.code, ip: '203.0.113.6', port });
      reviews.push((await p.store.listReviews()).find((r) => r.code === asked.code)!.id);
    }
    const presses = [
      buttonPress(`review:approve:${reviews[0]}`, moderator, { channel_id: REVIEW_CHANNEL_ID }),
      buttonPress(`review:confirm-reject:${reviews[1]}`, moderator, { channel_id: REVIEW_CHANNEL_ID }),
      buttonPress(`keys:confirm:${serverId}`, owner, { channel_id: REVIEW_CHANNEL_ID }),
      buttonPress(`keys:cancel:${code}`, owner, { channel_id: REVIEW_CHANNEL_ID }),
    ];
    proxy.hold();
    try {
      for (const press of presses) {
        const answer = await interact(p, press);
        expect(answer.type).toBe(InteractionResponseType.DeferredMessageUpdate);
        expect(answer.respondedAt - answer.dispatchedAt).toBeLessThan(DISCORD_DEADLINE_MS);
      }
    } finally {
      proxy.release();
    }
  });
});
