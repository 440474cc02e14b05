// Issue 33, items 3, 4, 5 and 9, with `npm run bot` as a real process against the Discord stand-in
// and an API on the same Redis: the audit trail (recorded in Redis, listed by the CLI, posted to
// the audit channel), reviews that name the claimant, ping the role once, ask before Reject, lose
// their buttons once decided or closed and are reminded once, the people concerned told by direct
// message, and the moderators' chores (/revoke autocomplete, /servers pages and owner filter).
import { InteractionResponseType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_REMIND_AFTER_MS, type AuditEntry, type ManualClock } from '../../store/index.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { adminEnv, runAdmin } from '../support/admin-cli.ts';
import { from, pluginClaim } from '../support/claims.ts';
import type { FakeMessage } from './support/fake-discord.ts';
import { buttonIds, interact, logged, startBotProcess, type BotProcess } from './support/bot-process.ts';
import {
  autocomplete,
  buttonPress,
  member,
  option,
  slashCommand,
  type TestMember,
} from './support/interactions.ts';
import { embedField, type MessageBody } from './support/replies.ts';
import { AUDIT_CHANNEL_ID, GUILD_ID, MODERATOR_ROLE_ID, REVIEW_CHANNEL_ID } from './support/snowflakes.ts';

let p: BotProcess;
let api: TestApi;

beforeAll(async () => {
  p = await startBotProcess();
  api = await startTestApi({ REDIS_PREFIX: p.prefix });
}, 90_000);
afterAll(async () => {
  await api?.close();
  expect(await p?.close()).toEqual({ code: 0, signal: null });
});

const moderator = member('mod', { roles: [MODERATOR_ROLE_ID] });
const run = (...args: Parameters<typeof slashCommand>) => interact(p, slashCommand(...args));
const press = (
  who: TestMember,
  customId: string,
  message: { channel_id?: string } = { channel_id: GUILD_ID },
) => interact(p, buttonPress(customId, who, message));

const inChannel = (channelId: string) => () =>
  [...p.discord.messages.values()].filter((m) => m.channel_id === channelId);
/** Waits for a message of the channel that satisfies `test`. */
async function awaitMessage(
  channelId: string,
  test: (m: FakeMessage) => boolean,
  what: string,
): Promise<FakeMessage> {
  const [found] = await p.discord.waitFor(() => inChannel(channelId)().filter(test), 1, what);
  return found!;
}
const auditLine = (text: string) =>
  awaitMessage(AUDIT_CHANNEL_ID, (m) => m.content.includes(text), `audit line "${text}"`);
const directMessage = async (who: TestMember, text: string) => {
  const [dm] = await p.discord.waitFor(
    () => p.discord.directMessages(who.id).filter((m) => m.content.includes(text)),
    1,
    `a direct message to ${who.username}: "${text}"`,
  );
  return dm!;
};
const auditList = async (...args: string[]) => {
  const result = await runAdmin(['audit', 'list', ...args], adminEnv(p.prefix));
  expect(result.code, result.stderr || result.stdout).toBe(0);
  return result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AuditEntry);
};

describe('/revoke by a moderator', () => {
  it('autocompletes server ids and labels, for moderators only', async () => {
    const key = await p.store.issueHttpKey({ owner: member('labeller').id, label: 'Ranked tracker' });
    const suggested = await interact(
      p,
      autocomplete('revoke', moderator, [option.focused('server-id', 'ranked')]),
    );
    expect(suggested.type).toBe(InteractionResponseType.ApplicationCommandAutocompleteResult);
    expect(suggested.body.choices).toEqual([
      { name: `Ranked tracker · http · ${key.serverId}`, value: key.serverId },
    ]);
    const byId = await interact(
      p,
      autocomplete('revoke', moderator, [option.focused('server-id', key.serverId.slice(0, 8))]),
    );
    expect(byId.body.choices?.map((c) => c.value)).toContain(key.serverId);
    const player = await interact(
      p,
      autocomplete('revoke', member('player'), [option.focused('server-id', 'ranked')]),
    );
    expect(player.body.choices).toEqual([]);
  });

  it('is recorded (the CLI lists it by actor and target), posted as one line, and the owner is told', async () => {
    const owner = member('keyholder');
    const key = await p.store.issueHttpKey({ owner: owner.id, label: 'stats tracker' });
    const answer = await run('revoke', moderator, [option.string('server-id', key.serverId)]);
    expect(answer.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    expect(answer.content).toBe(
      `Revoked \`${key.serverId}\`: its key no longer works. A block window it opened runs to its end. Its owner <@${owner.id}> is told.`,
    );

    const [newest] = await auditList('--actor', moderator.id);
    expect(newest).toMatchObject({
      actor: moderator.id,
      action: 'registration.revoke',
      target: key.serverId,
      owner: owner.id,
    });
    expect(await auditList('--target', key.serverId)).toEqual([newest]);

    const line = await auditLine(key.serverId);
    expect(line.content).toMatch(
      new RegExp(`^<t:\\d+:f> <@${moderator.id}> revoked \`${key.serverId}\` owned by <@${owner.id}>\\.$`),
    );
    expect(line.allowed_mentions).toEqual({ parse: [], users: [moderator.id, owner.id] });

    const dm = await directMessage(owner, key.serverId);
    expect(dm.content).toBe(
      `A moderator revoked your HTTP key \`stats tracker\` (server id \`${key.serverId}\`): its key no longer works. /keys shows what you still hold.`,
    );
    expect(dm.allowed_mentions).toEqual({ parse: [] });
  });

  it('an owner who takes no direct messages is logged at info once, never retried, and the trail goes on', async () => {
    const owner = member('private');
    p.discord.refuseDirectMessages(owner.id);
    const key = await p.store.issueHttpKey({ owner: owner.id });
    await run('revoke', moderator, [option.string('server-id', key.serverId)]);
    const [notTold] = await logged(p, /^member does not accept direct messages: not told$/);
    expect(notTold).toMatchObject({ level: 30, user: owner.id });
    // The next action is followed: the refused one was not tried again.
    await run('blocklist', moderator, [option.subcommand('add', [option.integer('seed', 918_273)])]);
    await auditLine('seed 918273');
    expect(p.discord.directMessageAttempts(owner.id)).toBe(1);
    expect(p.discord.directMessages(owner.id)).toEqual([]);
    expect(p.logs().filter((l) => (l.level as number) >= 50)).toEqual([]);
  });
});

describe('every moderator action is recorded and posted', () => {
  it('/blocklist add and remove, /minimum-version set and clear', async () => {
    const answers = [
      await run('blocklist', moderator, [option.subcommand('add', [option.integer('seed', 424_242)])]),
      await run('blocklist', moderator, [option.subcommand('remove', [option.integer('seed', 424_242)])]),
      await run('minimum-version', moderator, [
        option.subcommand('set', [option.string('version', '1.3.0')]),
      ]),
      await run('minimum-version', moderator, [option.subcommand('clear')]),
    ];
    for (const answer of answers)
      expect(answer.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    const recorded = (await p.store.listAudit({ actor: moderator.id })).slice(0, 4).reverse();
    expect(recorded.map((e) => [e.action, e.target])).toEqual([
      ['blocklist.add', '424242'],
      ['blocklist.remove', '424242'],
      ['minimum-version.set', '1.3.0'],
      ['minimum-version.clear', '1.3.0'],
    ]);
    for (const text of [
      'added seed 424242 to the blocklist',
      'removed seed 424242 from the blocklist',
      'set the minimum plugin version to `1.3.0`',
      'cleared the minimum plugin version (it was `1.3.0`)',
    ]) {
      const line = await auditLine(text);
      expect(line.allowed_mentions).toEqual({ parse: [], users: [moderator.id] });
    }
  });
});

/** A claim code for `claimant` (asked with /claim) used from another address: a review opens. */
async function openReview(claimant: TestMember) {
  const asked = await run('claim', claimant, [option.string('address', '203.0.113.5:7777')]);
  const code = /`([0-9A-Z]{5}-[0-9A-Z]{5})`/.exec(asked.content)![1]!;
  expect((await pluginClaim(api, { code, port: 7777 }, from('198.51.100.9'))).status).toBe(202);
  const review = (await p.store.listReviews()).find((r) => r.code === code)!;
  const message = await awaitMessage(
    REVIEW_CHANNEL_ID,
    (m) => JSON.stringify(m.embeds).includes(review.id),
    'the review',
  );
  return { code, review, message };
}

/** The review's message once Discord holds it in a state other than pending. */
const closedMessage = (messageId: string, status: string) =>
  awaitMessage(
    REVIEW_CHANNEL_ID,
    (m) => m.id === messageId && m.embeds[0]?.title === `Claim review: ${status}`,
    `the review ${status}`,
  );

describe('claim reviews', () => {
  it('name the claimant and when the code was issued, and call the moderator role once', async () => {
    const claimant = member('claimant');
    const { message } = await openReview(claimant);
    const body = message as unknown as MessageBody;
    expect(embedField(body, 'Requested by')).toBe(`<@${claimant.id}>`);
    expect(embedField(body, 'Code issued')).toMatch(/^<t:\d+:f>$/);
    expect(message.content).toBe(`<@&${MODERATOR_ROLE_ID}> A claim needs a moderator’s review.`);
    expect(message.allowed_mentions).toEqual({ parse: [], roles: [MODERATOR_ROLE_ID] });
  });

  it('Reject asks first; confirmed, the plugin gets 403, the claimant a direct message, the message who and when', async () => {
    const claimant = member('rejected');
    const { code, review, message } = await openReview(claimant);
    const asked = await press(moderator, `review:reject:${review.id}`, message);
    expect(asked.type).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect(asked.content).toMatch(/^Reject the claim with code/);
    expect(buttonIds(asked.body)).toEqual([`review:confirm-reject:${review.id}`, `review:keep:${review.id}`]);
    expect((await pluginClaim(api, { code, port: 7777 }, from('198.51.100.9'))).status).toBe(202);

    const confirmed = await press(moderator, `review:confirm-reject:${review.id}`, {
      channel_id: REVIEW_CHANNEL_ID,
    });
    expect(confirmed.type).toBe(InteractionResponseType.DeferredMessageUpdate);
    expect(confirmed.content).toBe(`Rejected: the code no longer works, and <@${claimant.id}> is told.`);
    expect((await pluginClaim(api, { code, port: 7777 }, from('198.51.100.9'))).status).toBe(403);

    const dm = await directMessage(claimant, code);
    expect(dm.content).toMatch(
      /^A moderator refused the claim with your code `[0-9A-Z-]+` from `198\.51\.100\.9:7777`/,
    );
    const decided = (await closedMessage(message.id, 'rejected')) as unknown as MessageBody;
    expect(embedField(decided, 'Decision')).toMatch(
      new RegExp(`^Rejected by <@${moderator.id}> <t:\\d+:f>$`),
    );
    expect(decided.components).toEqual([]);
    expect(JSON.stringify(decided.embeds)).not.toContain('**Approve**');
    await auditLine(`rejected claim review \`${review.id}\` of a code requested by <@${claimant.id}>`);
  });

  it('Approve decides at once: the claimant is told, and the plugin registers from the reviewed address', async () => {
    const claimant = member('approved');
    const { code, review, message } = await openReview(claimant);
    const approved = await press(moderator, `review:approve:${review.id}`, message);
    expect(approved.type).toBe(InteractionResponseType.DeferredMessageUpdate);
    expect(embedField(approved.body, 'Decision')).toMatch(new RegExp(`^Approved by <@${moderator.id}>`));
    expect(approved.body.components).toEqual([]);
    expect((await directMessage(claimant, code)).content).toMatch(
      /^A moderator approved the claim with your code/,
    );
    expect((await pluginClaim(api, { code, port: 7777 }, from('198.51.100.9'))).status).toBe(200);
  });

  it('closes, without buttons, when its code is cancelled or gone', async () => {
    const cancelling = member('cancelling');
    const cancelled = await openReview(cancelling);
    await press(cancelling, `keys:cancel:${cancelled.code}`);
    expect((await closedMessage(cancelled.message.id, 'cancelled')).components).toEqual([]);

    const expiring = await openReview(member('expiring'));
    // What its key's TTL does a day after the code expired.
    await p.store.ctx.redis.del(`${p.prefix}code:${expiring.code.replace('-', '')}`);
    expect((await closedMessage(expiring.message.id, 'expired')).components).toEqual([]);
    expect((await p.store.getReview(expiring.review.id))?.status).toBe('expired');
  });

  it(`a review pending ${REVIEW_REMIND_AFTER_MS / 60_000} minutes is brought up once, with the role`, async () => {
    const clock = p.store.ctx.clock as ManualClock;
    const first = await openReview(member('waiting'));
    const remindsOf = (messageId: string) => (m: FakeMessage) => m.content.endsWith(messageId);
    await clock.advance(REVIEW_REMIND_AFTER_MS);
    const reminder = await awaitMessage(REVIEW_CHANNEL_ID, remindsOf(first.message.id), 'the reminder');
    expect(reminder.content).toBe(
      `<@&${MODERATOR_ROLE_ID}> A claim review has waited 30 minutes for a decision: https://discord.com/channels/${GUILD_ID}/${REVIEW_CHANNEL_ID}/${first.message.id}`,
    );
    expect(reminder.allowed_mentions).toEqual({ parse: [], roles: [MODERATOR_ROLE_ID] });

    // Another review reminded later: the sweeps in between did not remind the first again.
    const second = await openReview(member('waiting too'));
    await clock.advance(REVIEW_REMIND_AFTER_MS);
    await awaitMessage(REVIEW_CHANNEL_ID, remindsOf(second.message.id), 'the second reminder');
    expect(inChannel(REVIEW_CHANNEL_ID)().filter(remindsOf(first.message.id))).toHaveLength(1);
  });
});

describe('/servers', () => {
  it('pages with buttons, and filters by owner', async () => {
    const owner = member('fleet');
    // Game servers registered with codes the owner asked for (an owner holds 3 HTTP keys at most).
    const servers = [];
    for (let i = 0; i < 9; i++) {
      const { code } = await p.store.issueClaimCode({ issuedBy: owner.id });
      const claimed = await p.store.claimWithCode({ code, ip: `198.51.100.${100 + i}`, port: 7777 });
      if (claimed.status !== 'verified') throw new Error(`claim ${i}: ${claimed.status}`);
      servers.push(claimed.serverId);
    }
    await p.store.issueHttpKey({ owner: member('other').id, label: 'someone else' });

    const first = await run('servers', moderator, [option.user('owner', owner.id)]);
    expect(first.content.split('\n')[0]).toBe(
      `9 live registrations of <@${owner.id}>, oldest first (page 1 of 2):`,
    );
    expect(first.content).not.toContain('someone else');
    expect(buttonIds(first.body)).toEqual([`servers:page:-1:${owner.id}`, `servers:page:1:${owner.id}`]);

    const second = await press(moderator, `servers:page:1:${owner.id}`);
    expect(second.type).toBe(InteractionResponseType.UpdateMessage);
    expect(second.content.split('\n')[0]).toBe(
      `9 live registrations of <@${owner.id}>, oldest first (page 2 of 2):`,
    );
    // The two pages show each of the owner's servers once.
    const ids = (content: string) => content.match(/[0-9a-f]{8}-[0-9a-f-]{27}/g) ?? [];
    expect([...ids(first.content), ...ids(second.content)].sort()).toEqual([...servers].sort());
    expect((await press(member('player'), `servers:page:1:${owner.id}`)).content).toBe(
      'Only moderators can use this command.',
    );
  });
});
