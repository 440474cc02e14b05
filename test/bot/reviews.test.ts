import { ButtonStyle, ComponentType, InteractionResponseType, MessageFlags } from 'discord.js';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { ReviewNotices } from '../../bot/reviews/review-notices.ts';
import { connectRedis, redisReady, type Review, type StoreRedis } from '../../store/index.ts';
import { API, fakeDiscord, type CapturedRequest, type FakeMessage } from './support/fake-discord.ts';
import { buttonPress, deliver, member } from './support/interactions.ts';
import { embedField as field, ephemeralReply, responseTo, type MessageBody } from './support/replies.ts';
import { APPLICATION_ID, MODERATOR_ROLE_ID, REVIEW_CHANNEL_ID } from './support/snowflakes.ts';
import { startTestBot, type TestBot } from './support/test-bot.ts';

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

/** A plugin claim from another address than its code was issued for: opens a review. */
async function openReview(pluginVersion = '1.1.0') {
  const code = await t.store.issueClaimCode({ ip: '203.0.113.5', port: 7777, issuedBy: 'someone' });
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
 * Runs the notice loop until `review` is posted and recorded; returns the posted message as
 * Discord holds it.
 */
async function postedReview(review: Review): Promise<FakeMessage> {
  const messageId = await new Promise<string>((resolve) => {
    notices = t.bot.startReviewNotices(blocking, {
      timeoutSeconds: 1,
      onPosted: (posted, id) => posted.id === review.id && resolve(id),
    });
  });
  const post = discord.find(isReviewPost).find((p) => (p.response as FakeMessage).id === messageId);
  return post!.response as FakeMessage;
}

describe('posting reviews', () => {
  it('posts a new review to the review channel as an embed with Approve and Reject buttons', async () => {
    const review = await openReview('1.1.3');
    const message = await postedReview(review);
    const post = discord.find(isReviewPost)[0]!;
    expect(post.headers.get('authorization')).toBe('Bot test-bot-token');

    const body = post.body as MessageBody;
    expect(body.embeds).toHaveLength(1);
    expect(field(body, 'Code')).toBe(`\`${review.code}\``);
    expect(field(body, 'Expected address')).toBe('`203.0.113.5:7777`');
    expect(field(body, 'Actual address')).toBe('`198.51.100.9:7777`');
    expect(field(body, 'Reason')).toContain('`ip_mismatch`');
    expect(field(body, 'Plugin version')).toBe('`1.1.3`');
    expect(body.components).toEqual([
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.Button,
            style: ButtonStyle.Success,
            label: 'Approve',
            custom_id: `review:approve:${review.id}`,
            disabled: false,
          },
          {
            type: ComponentType.Button,
            style: ButtonStyle.Danger,
            label: 'Reject',
            custom_id: `review:reject:${review.id}`,
            disabled: false,
          },
        ],
      },
    ]);
    expect(body.allowed_mentions).toEqual({ parse: [] });

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

describe('deciding reviews', () => {
  it('approve by a moderator: the store shows it approved, the message names them and disables the buttons', async () => {
    const review = await openReview();
    const message = await postedReview(review);

    const press = buttonPress(`review:approve:${review.id}`, alice, message);
    await deliver(t.bot, press);

    const response = responseTo(discord, press);
    expect(response.type).toBe(InteractionResponseType.UpdateMessage);
    const updated = response.data;
    expect(field(updated, 'Decision')).toBe(`Approved by <@${alice.id}>`);
    expect(updated?.embeds?.[0]?.title).toBe('Claim review: approved');
    const buttons = updated?.components?.[0]?.components ?? [];
    expect(buttons.map((b) => [b.custom_id, b.disabled])).toEqual([
      [`review:approve:${review.id}`, true],
      [`review:reject:${review.id}`, true],
    ]);

    expect(await t.store.getReview(review.id)).toMatchObject({
      status: 'approved',
      decidedBy: `alice (discord:${alice.id})`,
    });
    // Approved: the plugin's resend from the reviewed address registers.
    expect((await t.store.claimWithCode({ code: review.code, ip: '198.51.100.9', port: 7777 })).status).toBe(
      'verified',
    );
  });

  it('reject by a moderator refuses the code for good', async () => {
    const review = await openReview();
    const message = await postedReview(review);
    const press = buttonPress(`review:reject:${review.id}`, bob, message);
    await deliver(t.bot, press);

    expect(field(responseTo(discord, press).data, 'Decision')).toBe(`Rejected by <@${bob.id}>`);
    expect((await t.store.claimWithCode({ code: review.code, ip: '198.51.100.9', port: 7777 })).status).toBe(
      'claim rejected',
    );
  });

  it('refuses a press by a non-moderator and leaves the review pending', async () => {
    const review = await openReview();
    const message = await postedReview(review);
    const press = buttonPress(`review:approve:${review.id}`, player, message);
    await deliver(t.bot, press);

    expect(ephemeralReply(discord, press)).toBe('Only moderators can decide reviews.');
    expect((await t.store.getReview(review.id))?.status).toBe('pending');
  });

  it('gives one decision when two moderators press at once; the other learns who decided', async () => {
    const review = await openReview();
    const message = await postedReview(review);
    const approve = buttonPress(`review:approve:${review.id}`, alice, message);
    const reject = buttonPress(`review:reject:${review.id}`, bob, message);

    await Promise.all([deliver(t.bot, approve), deliver(t.bot, reject)]);

    const decided = await t.store.getReview(review.id);
    const winner = decided!.status === 'approved' ? alice : bob;
    const loser = winner === alice ? bob : alice;
    expect(decided?.decidedBy).toBe(`${winner.username} (discord:${winner.id})`);

    // Both messages show the one decision; only the second presser gets the "already" notice.
    const verb = decided!.status === 'approved' ? 'Approved' : 'Rejected';
    for (const press of [approve, reject]) {
      const response = responseTo(discord, press);
      expect(response.type).toBe(InteractionResponseType.UpdateMessage);
      expect(field(response.data, 'Decision')).toBe(`${verb} by <@${winner.id}>`);
    }
    const followUps = discord.find(
      (r) => r.method === 'POST' && r.path.startsWith(`/webhooks/${APPLICATION_ID}/`),
    );
    expect(followUps).toHaveLength(1);
    const loserPress = loser === alice ? approve : reject;
    expect(followUps[0]!.params.token).toBe(loserPress.token);
    const notice = followUps[0]!.body as { content: string; flags: number };
    expect(notice.content).toBe(`This review was already ${decided!.status} by <@${winner.id}>.`);
    expect(notice.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
  });

  it('brings a message up to date when the review was decided from the CLI', async () => {
    const review = await openReview();
    const message = await postedReview(review);
    await t.store.decideReview({ id: review.id, decision: 'rejected', moderator: 'operator (CLI)' });

    const press = buttonPress(`review:approve:${review.id}`, alice, message);
    await deliver(t.bot, press);
    expect(field(responseTo(discord, press).data, 'Decision')).toBe('Rejected by operator (CLI)');
    const [followUp] = discord.find((r) => r.path.startsWith(`/webhooks/${APPLICATION_ID}/${press.token}`));
    expect((followUp!.body as { content: string }).content).toBe(
      'This review was already rejected by operator (CLI).',
    );
    expect((await t.store.getReview(review.id))?.status).toBe('rejected');
  });

  it('says so for a review that does not exist', async () => {
    const press = buttonPress(`review:approve:${crypto.randomUUID()}`, alice, {
      channel_id: REVIEW_CHANNEL_ID,
    });
    await deliver(t.bot, press);
    expect(ephemeralReply(discord, press)).toBe('This review no longer exists.');
  });
});
