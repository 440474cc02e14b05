import { ButtonStyle, ComponentType, InteractionResponseType } from 'discord.js';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { ReviewNotices } from '../../bot/reviews/review-notices.ts';
import { connectRedis, redisReady, type Review, type StoreRedis } from '../../store/index.ts';
import { API, fakeDiscord, type CapturedRequest, type FakeMessage } from './support/fake-discord.ts';
import { buttonPress, deliver, member } from './support/interactions.ts';
import {
  embedField as field,
  ephemeralReply,
  originalMessage,
  responseTo,
  type MessageBody,
} from './support/replies.ts';
import { APPLICATION_ID, BOT_TOKEN, MODERATOR_ROLE_ID, REVIEW_CHANNEL_ID } from './support/snowflakes.ts';
import { startTestBot, type TestBot } from './support/test-bot.ts';
import { pollUntil } from '../support/clock.ts';

// Claim reviews: posted to the moderators' channel as an embed with Approve/Reject buttons, and
// decided by pressing them (moderators only, one decision however many press at once).

const discord = fakeDiscord();
let t: TestBot;
let blocking: StoreRedis;
let notices: ReviewNotices | null = null;

beforeAll(async () => {
  discord.server.listen({ onUnhandledRequest: 'error' });
  t = await startTestBot();
});
beforeEach(async () => {
  blocking = connectRedis({ url: inject('redisUrl'), name: 'test-bot-notices', blocking: true });
  await redisReady(blocking);
});
afterEach(async () => {
  await notices?.stop();
  notices = null;
  blocking.disconnect();
  discord.reset();
});
afterAll(async () => {
  await t?.close();
  discord.server.close();
});

const alice = member('alice', { roles: [MODERATOR_ROLE_ID] });
const bob = member('bob', { roles: [MODERATOR_ROLE_ID] });
const player = member('player');

const isReviewPost = (r: CapturedRequest) =>
  r.method === 'POST' && r.path === `/channels/${REVIEW_CHANNEL_ID}/messages`;

/** A plugin claim from another address than its code was issued for (to a new member): opens a review. */
async function openReview(pluginVersion = '1.1.0', claimant = member('claimant')) {
  const code = await t.store.issueClaimCode({ ip: '203.0.113.5', port: 7777, issuedBy: claimant.id });
  const result = await t.store.claimWithCode({
    code: code.code,
    ip: '198.51.100.9',
    port: 7777,
    pluginVersion,
  });
  expect(result).toMatchObject({ status: 'review', reason: 'ip_mismatch' });
  const [review] = (await t.store.listReviews()).filter((r) => r.code === code.code);
  return review!;
}

/**
 * Runs the bot's notice loop (on a blocking connection of its own, as main.ts does); `shown`
 * resolves with the message id once the review was posted or updated in the given status.
 */
async function runNotices(bot: TestBot = t) {
  const connection = connectRedis({ url: inject('redisUrl'), name: 'test-bot-notices', blocking: true });
  await redisReady(connection);
  const seen: { review: Review; messageId: string }[] = [];
  const handle = bot.bot.startReviewNotices(connection, {
    timeoutSeconds: 1,
    onPosted: (review, messageId) => seen.push({ review, messageId }),
  });
  notices = handle;
  return {
    stop: () => handle!.stop(),
    async shown(reviewId: string, status: Review['status'] = 'pending'): Promise<string> {
      const messageId = await pollUntil(
        async () => seen.find((s) => s.review.id === reviewId && s.review.status === status)?.messageId,
        Boolean,
        { what: `review ${reviewId} shown as ${status}` },
      );
      return messageId!;
    },
  };
}

/** Runs the notice loop until `review` is posted and recorded; returns the posted message as Discord holds it. */
async function postedReview(review: Review): Promise<FakeMessage> {
  const messageId = await (await runNotices()).shown(review.id);
  return discord.messages.get(messageId)!;
}

describe('posting reviews', () => {
  it('posts a new review to the review channel as an embed with Approve and Reject buttons', async () => {
    const review = await openReview('1.1.3');
    const message = await postedReview(review);
    const post = discord.find(isReviewPost)[0]!;
    expect(post.headers.get('authorization')).toBe(`Bot ${BOT_TOKEN}`);

    const body = post.body as MessageBody;
    expect(body.embeds).toHaveLength(1);
    expect(field(body, 'Code')).toBe(`\`${review.code}\``);
    expect(field(body, 'Expected address')).toBe('`203.0.113.5:7777`');
    expect(field(body, 'Actual address')).toBe('`198.51.100.9:7777`');
    expect(field(body, 'Reason')).toContain('`ip_mismatch`');
    expect(field(body, 'Plugin version')).toBe('`1.1.3`');
    expect(field(body, 'Requested by')).toBe(`<@${review.issuedBy}>`);
    expect(field(body, 'Code issued')).toMatch(/^<t:\d+:f>$/);
    expect(body.components).toEqual([
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.Button,
            style: ButtonStyle.Success,
            label: 'Approve',
            custom_id: `review:approve:${review.id}`,
          },
          {
            type: ComponentType.Button,
            style: ButtonStyle.Danger,
            label: 'Reject…',
            custom_id: `review:reject:${review.id}`,
          },
        ],
      },
    ]);
    // The moderator role is called, once, and no one else.
    expect(body.content).toBe(`<@&${MODERATOR_ROLE_ID}> A claim needs a moderator’s review.`);
    expect(body.allowed_mentions).toEqual({ parse: [], roles: [MODERATOR_ROLE_ID] });

    // The store knows where it went, and the notice is done.
    expect((await t.store.getReview(review.id))?.messageId).toBe(message.id);
    expect(await t.store.ctx.redis.llen(`${t.config.REDIS_PREFIX}reviews:posting`)).toBe(0);
  });

  it('posts on start what a stopped bot took but never posted', async () => {
    const review = await openReview();
    // A bot took the notice, then stopped before posting it.
    expect((await t.store.nextReviewNotice(blocking, 1))?.id).toBe(review.id);
    expect(discord.find(isReviewPost)).toHaveLength(0);

    await postedReview(review);
    const [post] = discord.find(isReviewPost);
    expect(field(post!.body as MessageBody, 'Code')).toBe(`\`${review.code}\``);
    expect((await t.store.getReview(review.id))?.messageId).not.toBeNull();
    expect(await t.store.ctx.redis.llen(`${t.config.REDIS_PREFIX}reviews:posting`)).toBe(0);
  });

  it('keeps a review whose posting failed and posts it after a pause', async () => {
    discord.server.use(
      http.post(
        `${API}/channels/:channelId/messages`,
        () => HttpResponse.json({ message: 'Internal Server Error', code: 0 }, { status: 500 }),
        { once: true },
      ),
    );
    const review = await openReview();
    const message = await postedReview(review);

    expect(discord.find(isReviewPost)).toHaveLength(1);
    expect((await t.store.getReview(review.id))?.messageId).toBe(message.id);
    expect(await t.store.ctx.redis.llen(`${t.config.REDIS_PREFIX}reviews:posting`)).toBe(0);
  });
});

/** The message a deferred button press left: its response is a deferred update, then the edit. */
function editAfterPress(press: ReturnType<typeof buttonPress>): MessageBody {
  expect(responseTo(discord, press).type).toBe(InteractionResponseType.DeferredMessageUpdate);
  const edits = discord.find((r) => r.method === 'PATCH' && r.path === originalMessage(press));
  expect(edits).toHaveLength(1);
  return edits[0]!.body as MessageBody;
}

/** The ephemeral follow-ups sent for a press, by content. */
const followUpsOf = (press: ReturnType<typeof buttonPress>) =>
  discord
    .find((r) => r.method === 'POST' && r.path === `/webhooks/${APPLICATION_ID}/${press.token}`)
    .map((r) => (r.body as { content: string; flags: number }).content);

const decidedBy = (verb: string, who: { id: string }) => new RegExp(`^${verb} by <@${who.id}> <t:\\d+:f>$`);

describe('deciding reviews', () => {
  it('approve by a moderator: the store shows it approved; the message says who and when, without instructions or buttons', async () => {
    const review = await openReview();
    const message = await postedReview(review);

    const press = buttonPress(`review:approve:${review.id}`, alice, message);
    await deliver(t.bot, press);

    const updated = editAfterPress(press);
    expect(field(updated, 'Decision')).toMatch(decidedBy('Approved', alice));
    expect(updated.embeds?.[0]?.title).toBe('Claim review: approved');
    expect(JSON.stringify(updated.embeds)).not.toContain('Reject');
    expect(updated.components).toEqual([]);

    expect(await t.store.getReview(review.id)).toMatchObject({
      status: 'approved',
      decidedBy: `alice (discord:${alice.id})`,
      decidedAt: expect.any(String),
    });
    // Approved: the plugin's resend from the reviewed address registers.
    expect((await t.store.claimWithCode({ code: review.code, ip: '198.51.100.9', port: 7777 })).status).toBe(
      'verified',
    );
  });

  it('reject asks first; only the confirming press refuses the code for good', async () => {
    const review = await openReview();
    const message = await postedReview(review);
    const press = buttonPress(`review:reject:${review.id}`, bob, message);
    await deliver(t.bot, press);

    expect(ephemeralReply(discord, press)).toMatch(
      /^Reject the claim with code `[0-9A-Z-]+` from `198\.51\.100\.9:7777`\?/,
    );
    const asked = responseTo(discord, press).data!;
    expect(asked.components?.[0]?.components.map((b) => [b.label, b.custom_id])).toEqual([
      ['Reject for good', `review:confirm-reject:${review.id}`],
      ['Keep it pending', `review:keep:${review.id}`],
    ]);
    expect((await t.store.getReview(review.id))?.status).toBe('pending');

    const ephemeralMessage = { channel_id: message.channel_id };
    const keep = buttonPress(`review:keep:${review.id}`, bob, ephemeralMessage);
    await deliver(t.bot, keep);
    expect(responseTo(discord, keep)).toMatchObject({
      type: InteractionResponseType.UpdateMessage,
      data: { content: 'Kept: the review is still pending; nothing changed.', components: [] },
    });
    expect((await t.store.getReview(review.id))?.status).toBe('pending');

    const confirm = buttonPress(`review:confirm-reject:${review.id}`, bob, ephemeralMessage);
    await deliver(t.bot, confirm);
    expect(editAfterPress(confirm)).toMatchObject({
      content: `Rejected: the code no longer works, and <@${review.issuedBy}> is told.`,
      components: [],
    });
    expect(await t.store.getReview(review.id)).toMatchObject({
      status: 'rejected',
      decidedBy: `bob (discord:${bob.id})`,
    });
    expect((await t.store.claimWithCode({ code: review.code, ip: '198.51.100.9', port: 7777 })).status).toBe(
      'claim rejected',
    );
  });

  it.each(['approve', 'reject', 'confirm-reject'])(
    'refuses a %s press by a non-moderator and leaves the review pending',
    async (action) => {
      const review = await openReview();
      const message = await postedReview(review);
      const press = buttonPress(`review:${action}:${review.id}`, player, message);
      await deliver(t.bot, press);

      expect(ephemeralReply(discord, press)).toBe('Only moderators can decide reviews.');
      expect((await t.store.getReview(review.id))?.status).toBe('pending');
    },
  );

  it('gives one decision when two moderators press at once; the other learns who decided', async () => {
    const review = await openReview();
    const message = await postedReview(review);
    const approve = buttonPress(`review:approve:${review.id}`, alice, message);
    const reject = buttonPress(`review:confirm-reject:${review.id}`, bob, { channel_id: message.channel_id });

    await Promise.all([deliver(t.bot, approve), deliver(t.bot, reject)]);

    const decided = await t.store.getReview(review.id);
    const winner = decided!.status === 'approved' ? alice : bob;
    expect(decided?.decidedBy).toBe(`${winner.username} (discord:${winner.id})`);
    const already = `This review was already ${decided!.status} by <@${winner.id}>.`;

    // The review message shows the one decision; the second presser is told who decided.
    expect(field(editAfterPress(approve), 'Decision')).toMatch(
      decidedBy(decided!.status === 'approved' ? 'Approved' : 'Rejected', winner),
    );
    const rejectEdit = editAfterPress(reject).content;
    if (winner === alice) {
      expect(rejectEdit).toBe(already);
      expect(followUpsOf(approve)).toEqual([]);
    } else {
      expect(rejectEdit).toMatch(/^Rejected: the code no longer works/);
      expect(followUpsOf(approve)).toEqual([already]);
    }
  });

  it('brings a message up to date when the review was decided from the CLI', async () => {
    const review = await openReview();
    const running = await runNotices();
    const messageId = await running.shown(review.id);
    const message = discord.messages.get(messageId)!;
    await t.store.decideReview({ id: review.id, decision: 'rejected', moderator: 'operator (CLI)' });

    // The decision's notice edits the message: no buttons left.
    await running.shown(review.id, 'rejected');
    expect(field(discord.messages.get(messageId), 'Decision')).toMatch(
      /^Rejected by operator \(CLI\) <t:\d+:f>$/,
    );
    expect(discord.messages.get(messageId)?.components).toEqual([]);

    // A press on a stale copy of its buttons decides nothing and says who did.
    const press = buttonPress(`review:approve:${review.id}`, alice, message);
    await deliver(t.bot, press);
    expect(field(editAfterPress(press), 'Decision')).toMatch(/^Rejected by operator \(CLI\)/);
    expect(followUpsOf(press)).toEqual(['This review was already rejected by operator (CLI).']);
    expect((await t.store.getReview(review.id))?.status).toBe('rejected');
  });

  it('says so for a review that does not exist', async () => {
    const press = buttonPress(`review:approve:${crypto.randomUUID()}`, alice, {
      channel_id: REVIEW_CHANNEL_ID,
    });
    await deliver(t.bot, press);
    expect(responseTo(discord, press).type).toBe(InteractionResponseType.DeferredMessageUpdate);
    expect(followUpsOf(press)).toEqual(['This review no longer exists.']);
  });
});

describe('superseded reviews (a code used from its expected address after all)', () => {
  const EXPECTED = { ip: '203.0.113.5', port: 7777 }; // what openReview issues the code for
  const claimFromExpected = (review: Review) => t.store.claimWithCode({ code: review.code, ...EXPECTED });
  const isEditOf = (messageId: string) => (r: CapturedRequest) =>
    r.method === 'PATCH' && r.path === `/channels/${REVIEW_CHANNEL_ID}/messages/${messageId}`;
  const SUPERSEDED =
    /^Superseded: its code registered the server from the expected address \(`203\.0\.113\.5:7777`\) <t:\d+:f>$/;

  /** A message body (sent, or as Discord holds it) showing the review superseded, with no buttons. */
  function expectSuperseded(body: unknown) {
    const message = body as MessageBody | undefined;
    expect(message?.embeds?.[0]?.title).toBe('Claim review: superseded');
    expect(field(message, 'Decision')).toMatch(SUPERSEDED);
    expect(message?.components).toEqual([]);
  }

  const queued = async () => ({
    notify: await t.store.ctx.redis.llen(`${t.config.REDIS_PREFIX}reviews:notify`),
    posting: await t.store.ctx.redis.llen(`${t.config.REDIS_PREFIX}reviews:posting`),
  });

  it('closes the review; the bot edits its message to show that, without buttons; no longer pending', async () => {
    const review = await openReview();
    const running = await runNotices();
    const messageId = await running.shown(review.id);
    expect(discord.messages.get(messageId)?.components).toHaveLength(1);

    expect((await claimFromExpected(review)).status).toBe('verified');
    expect(await t.store.getReview(review.id)).toMatchObject({
      status: 'superseded',
      decidedBy: null,
      messageId,
    });
    expect((await t.store.listReviews()).map((r) => r.id)).not.toContain(review.id);

    expect(await running.shown(review.id, 'superseded')).toBe(messageId);
    const [edit, ...more] = discord.find(isEditOf(messageId));
    expect(more).toEqual([]);
    expect(edit!.headers.get('authorization')).toBe(`Bot ${BOT_TOKEN}`);
    expectSuperseded(edit!.body);
    expectSuperseded(discord.messages.get(messageId));
    expect(discord.find(isReviewPost)).toHaveLength(1);
    expect(await queued()).toEqual({ notify: 0, posting: 0 });
  });

  it('the edit waits in Redis while no bot runs, and the next bot makes it', async () => {
    const review = await openReview();
    const other = await openReview();
    const first = await runNotices();
    const messageId = await first.shown(review.id);
    const otherId = await first.shown(other.id);
    await first.stop();

    // Superseded while the bot is down; the other review too, and that notice is taken by a bot
    // that stops before editing (it stays in reviews:posting).
    expect((await claimFromExpected(review)).status).toBe('verified');
    expect((await claimFromExpected(other)).status).toBe('verified');
    expect(await t.store.nextReviewNotice(blocking, 1)).toMatchObject({
      id: review.id,
      status: 'superseded',
    });
    expect(await queued()).toEqual({ notify: 1, posting: 1 });
    expect(discord.find((r) => r.method === 'PATCH')).toEqual([]);

    // A new bot process over the same store.
    const restarted = await startTestBot({ REDIS_PREFIX: t.config.REDIS_PREFIX });
    try {
      const second = await runNotices(restarted);
      expect(await second.shown(review.id, 'superseded')).toBe(messageId);
      expect(await second.shown(other.id, 'superseded')).toBe(otherId);
      expectSuperseded(discord.messages.get(messageId));
      expectSuperseded(discord.messages.get(otherId));
      expect(discord.find(isReviewPost)).toHaveLength(2);
      expect(await queued()).toEqual({ notify: 0, posting: 0 });
      await second.stop();
    } finally {
      await restarted.close();
    }
  });

  it('a review superseded before it was ever posted is posted as it stands: closed, no buttons', async () => {
    const review = await openReview();
    expect((await claimFromExpected(review)).status).toBe('verified');
    const running = await runNotices();
    const messageId = await running.shown(review.id, 'superseded');
    const [post, ...more] = discord.find(isReviewPost);
    expect(more).toEqual([]);
    expectSuperseded(post!.body);
    // Its second notice (the supersede) is worked off too: an edit to the same state.
    await pollUntil(queued, (q) => q.notify === 0 && q.posting === 0, { what: 'notices worked off' });
    expectSuperseded(discord.messages.get(messageId));
  });

  it('a deleted message is not recreated, and the notices after it still go out', async () => {
    const review = await openReview();
    const running = await runNotices();
    const messageId = await running.shown(review.id);
    discord.messages.delete(messageId); // a moderator deleted it
    expect((await claimFromExpected(review)).status).toBe('verified');
    const next = await openReview();
    await running.shown(next.id);

    const [edit] = discord.find(isEditOf(messageId));
    expect(edit).toBeDefined();
    expect(discord.find(isReviewPost)).toHaveLength(2);
    expect(discord.messages.has(messageId)).toBe(false);
    expect(await queued()).toEqual({ notify: 0, posting: 0 });
  });

  it('a press on its old buttons shows it superseded and decides nothing', async () => {
    const review = await openReview();
    const message = await postedReview(review);
    expect((await claimFromExpected(review)).status).toBe('verified');

    const press = buttonPress(`review:reject:${review.id}`, alice, message);
    await deliver(t.bot, press);
    const response = responseTo(discord, press);
    expect(response.type).toBe(InteractionResponseType.UpdateMessage);
    expectSuperseded(response.data);
    const [followUp] = discord.find((r) => r.path.startsWith(`/webhooks/${APPLICATION_ID}/${press.token}`));
    expect((followUp!.body as { content: string }).content).toBe(
      'This review was superseded: its code registered the server from the expected address.',
    );
    expect(await t.store.getReview(review.id)).toMatchObject({ status: 'superseded', decidedBy: null });
    // The registration the code made stands.
    expect((await t.store.listRegistrations()).filter((r) => r.ip === EXPECTED.ip)).toHaveLength(1);
  });
});
