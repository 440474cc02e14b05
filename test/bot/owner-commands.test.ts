// Issue 33, items 1, 2 and 6, for server owners, with `npm run bot` as a real process against the
// Discord stand-in and an API on the same Redis: where the owner commands work (the guild only),
// how many codes a member gets (3 live, 10 a day), /keys (list, revoke after a confirmation,
// cancel), and texts that follow the deployment (PUBLIC_URL, the API prefix, the plugin minimum).
import { InteractionResponseType, MessageFlags } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLAIM_CODES_DAY_MS,
  CLAIM_CODES_LIVE_PER_MEMBER,
  CLAIM_CODES_PER_MEMBER_PER_DAY,
  HTTP_KEYS_PER_OWNER,
  type ManualClock,
} from '../../store/index.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { from, pluginClaim } from '../support/claims.ts';
import { sendReport, validReport } from '../support/requests.ts';
import { buttonIds, interact, startBotProcess, type BotProcess } from './support/bot-process.ts';
import {
  buttonPress,
  inDirectMessage,
  inOtherGuild,
  member,
  slashCommand,
  type TestMember,
} from './support/interactions.ts';
import { APPLICATION_ID, GUILD_ID } from './support/snowflakes.ts';

const PUBLIC_URL = 'https://maps.example.org';
const CODE = /`([0-9A-Z]{5}-[0-9A-Z]{5})`/;
const KEY = /`(sbk_[0-9A-Za-z]+)`/;

let p: BotProcess;
let api: TestApi;

beforeAll(async () => {
  p = await startBotProcess({ PUBLIC_URL });
  api = await startTestApi({ REDIS_PREFIX: p.prefix });
}, 90_000);
afterAll(async () => {
  await api?.close();
  expect(await p?.close()).toEqual({ code: 0, signal: null });
});

const run = (payload: ReturnType<typeof slashCommand>) => interact(p, payload);
const claim = (who: TestMember) => run(slashCommand('claim', who));
/** A press of a button on the (ephemeral) message an answer showed. */
const pressOn = (who: TestMember, customId: string) =>
  interact(p, buttonPress(customId, who, { channel_id: GUILD_ID }));

it('starts without a warning when every setting is there and usable', () => {
  expect(p.logs().filter((l) => (l.level as number) >= 40)).toEqual([]);
});

describe('where the owner commands work', () => {
  it('are registered for the guild only (contexts [0]), and the global scope is emptied', async () => {
    const [put] = p.discord.requests.filter(
      (r) => r.method === 'PUT' && r.path === `/applications/${APPLICATION_ID}/guilds/${GUILD_ID}/commands`,
    );
    const byName = Object.fromEntries(
      (put!.body as { name: string; contexts: number[] }[]).map((c) => [c.name, c]),
    );
    for (const name of ['claim', 'httpkey', 'keys']) expect(byName[name]?.contexts).toEqual([0]);
    const global = p.discord.requests.filter(
      (r) => r.method === 'PUT' && r.path === `/applications/${APPLICATION_ID}/commands`,
    );
    expect(global.map((r) => r.body)).toEqual([[]]);
  });

  it.each([
    ['a direct message', inDirectMessage, /not in a direct message/],
    ['another guild', inOtherGuild, /serves another Discord server/],
  ])('refuses /claim, /httpkey and /keys from %s, and issues nothing', async (_where, move, says) => {
    const who = member('elsewhere');
    for (const name of ['claim', 'httpkey', 'keys']) {
      const answer = await run(move(slashCommand(name, who)));
      expect(answer.type).toBe(InteractionResponseType.ChannelMessageWithSource);
      expect(answer.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
      expect(answer.content).toMatch(says);
      expect(answer.content).toContain('Nothing was issued.');
      expect(answer.content).not.toMatch(CODE);
      expect(answer.content).not.toMatch(KEY);
    }
    expect(await p.store.listMemberCodes(who.id)).toEqual([]);
    expect(await p.store.listOwnedRegistrations(who.id)).toEqual([]);
  });
});

describe('/claim: how many codes a member gets', () => {
  it(`gives at most ${CLAIM_CODES_LIVE_PER_MEMBER} live codes; the next reply names the limit and when, and issues nothing`, async () => {
    const who = member('hoarder');
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await claim(who));
    // Every /claim is deferred (its write may wait on replicas), then answered.
    for (const answer of answers)
      expect(answer.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    const codes = answers.map((a) => CODE.exec(a.content)?.[1]).filter(Boolean);
    expect(codes).toHaveLength(CLAIM_CODES_LIVE_PER_MEMBER);
    for (const refused of answers.slice(CLAIM_CODES_LIVE_PER_MEMBER)) {
      expect(refused.content).toContain(
        `the most one member may hold at once (${CLAIM_CODES_LIVE_PER_MEMBER})`,
      );
      expect(refused.content).toMatch(/The next code is possible <t:\d+:R>/);
      expect(refused.content).toContain('No code was issued.');
    }
    expect((await p.store.listMemberCodes(who.id)).map((c) => c.code).sort()).toEqual([...codes].sort());
    // The limit is per member.
    expect((await claim(member('someone else'))).content).toMatch(CODE);
  });

  it(`gives at most ${CLAIM_CODES_PER_MEMBER_PER_DAY} a day, used or not; a day later, again`, async () => {
    const who = member('daily');
    const clock = p.store.ctx.clock as ManualClock;
    for (let i = 0; i < CLAIM_CODES_PER_MEMBER_PER_DAY; i++) {
      const code = CODE.exec((await claim(who)).content)?.[1];
      expect(code, `code ${i + 1}`).toBeDefined();
      // Used at once, so the live limit never stands in the way.
      expect((await pluginClaim(api, { code, port: 7777 }, from('198.51.100.30'))).status).toBe(200);
    }
    const refused = (await claim(who)).content;
    expect(refused).toContain(`the most one member may get in a day (${CLAIM_CODES_PER_MEMBER_PER_DAY})`);
    expect(refused).not.toMatch(CODE);
    const next = Number(/The next code is possible <t:(\d+):R>/.exec(refused)?.[1]) * 1000;
    expect(next).toBeGreaterThan(await clock.now());

    await clock.advance(CLAIM_CODES_DAY_MS);
    expect((await claim(who)).content).toMatch(CODE);
  });
});

describe('/keys: owners manage their own keys', () => {
  it('lists the caller’s keys, servers and codes, each with a button; nobody else’s', async () => {
    const owner = member('owner');
    const http = KEY.exec((await run(slashCommand('httpkey', owner))).content)![1]!;
    const httpKey = (await p.store.authenticate(http))!;
    // A server registered with a code the owner asked for is theirs too.
    const code = CODE.exec((await claim(owner)).content)![1]!;
    const plugin = (await pluginClaim(api, { code, port: 7777 }, from('198.51.100.41'))).body;
    const open = CODE.exec((await claim(owner)).content)![1]!;
    await p.store.issueHttpKey({ owner: member('stranger').id, label: 'not yours' });

    const answer = await run(slashCommand('keys', owner));
    expect(answer.type).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect(answer.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(answer.content).toContain(httpKey.serverId);
    expect(answer.content).toContain(plugin.serverId);
    expect(answer.content).toMatch(
      / · plugin · 198\.51\.100\.41:7777 · issued <t:\d+:R> · last report never · /,
    );
    expect(answer.content).toContain(`claim code \`${open}\` · expires <t:`);
    expect(answer.content).not.toContain('not yours');
    // Keys in issue order (issued in the same millisecond of the test's clock: either first), then codes.
    const ids = buttonIds(answer.body);
    expect(ids.slice(0, 2).sort()).toEqual(
      [`keys:revoke:${httpKey.serverId}`, `keys:revoke:${plugin.serverId}`].sort(),
    );
    expect(ids.slice(2)).toEqual([`keys:cancel:${open}`]);
  });

  it('Revoke asks first (nothing changes, Keep keeps it); the confirmed press revokes at once: 401 on the API', async () => {
    const owner = member('revoker');
    const credential = KEY.exec((await run(slashCommand('httpkey', owner))).content)![1]!;
    const { serverId } = (await p.store.authenticate(credential))!;
    const reports = () => sendReport(api, credential, validReport(), { path: '/v1/servers/report' });
    expect((await reports()).status).toBe(200);

    const asked = await pressOn(owner, `keys:revoke:${serverId}`);
    expect(asked.type).toBe(InteractionResponseType.UpdateMessage);
    expect(asked.content).toMatch(
      new RegExp(`^Revoke .*server id \`${serverId}\`\\)\\? Its key stops working at once`),
    );
    expect(buttonIds(asked.body)).toEqual([`keys:confirm:${serverId}`, 'keys:keep']);
    expect((await reports()).status).toBe(200);

    const kept = await pressOn(owner, 'keys:keep');
    expect(kept.content).toMatch(/^Kept: nothing was revoked\./);
    expect(kept.content).toContain(serverId);
    expect((await reports()).status).toBe(200);

    // Someone else's press of the confirmation (a crafted id) revokes nothing.
    const foreign = await pressOn(member('intruder'), `keys:confirm:${serverId}`);
    expect(foreign.content).toMatch(/^That key was no longer live; nothing changed\./);
    expect((await reports()).status).toBe(200);

    const revoked = await pressOn(owner, `keys:confirm:${serverId}`);
    expect(revoked.type).toBe(InteractionResponseType.DeferredMessageUpdate);
    expect(revoked.content).toMatch(new RegExp(`^Revoked \`${serverId}\`: its key no longer works\\.`));
    expect(buttonIds(revoked.body)).not.toContain(`keys:revoke:${serverId}`);
    expect((await reports()).status).toBe(401);
    expect(await p.store.listAudit({ target: serverId })).toEqual([
      expect.objectContaining({ actor: owner.id, action: 'registration.revoke', owner: owner.id }),
    ]);
    // Its owner revoked it: no one is told by direct message.
    expect(p.discord.directMessages(owner.id)).toEqual([]);
  });

  it('Cancel ends a code at once: the plugin claim gets 401', async () => {
    const owner = member('canceller');
    const code = CODE.exec((await claim(owner)).content)![1]!;
    const cancelled = await pressOn(owner, `keys:cancel:${code}`);
    expect(cancelled.type).toBe(InteractionResponseType.DeferredMessageUpdate);
    expect(cancelled.content).toMatch(new RegExp(`^Cancelled claim code \`${code}\`: it no longer works\\.`));
    expect((await pluginClaim(api, { code, port: 7777 }, from('198.51.100.42'))).status).toBe(401);
    expect(await p.store.listAudit({ target: code })).toEqual([
      expect.objectContaining({ actor: owner.id, action: 'code.cancel', owner: owner.id }),
    ]);
  });

  it(`the ${HTTP_KEYS_PER_OWNER + 1}th key is refused and points to /keys`, async () => {
    const owner = member('collector');
    for (let i = 0; i < HTTP_KEYS_PER_OWNER; i++)
      expect((await run(slashCommand('httpkey', owner))).content).toMatch(KEY);
    const refused = (await run(slashCommand('httpkey', owner))).content;
    expect(refused).not.toMatch(KEY);
    expect(refused).toContain('/keys');
    expect(refused).not.toContain('POST /v1/servers/revoke');
  });
});

describe('texts follow the deployment', () => {
  it('/httpkey names the full report URL from PUBLIC_URL and the API prefix', async () => {
    const { content } = await run(slashCommand('httpkey', member('toolmaker')));
    expect(content).toContain(`${PUBLIC_URL}/api/v1/servers/report`);
    expect(content).toContain(`${PUBLIC_URL}/api/v1/servers/revoke`);
  });

  it('/claim names the plugin minimum the store holds', async () => {
    expect((await claim(member('early'))).content).toContain('SeedBlock plugin 1.1.0 or newer');
    await p.store.setMinimumVersion('1.4.0');
    try {
      expect((await claim(member('later'))).content).toContain('SeedBlock plugin 1.4.0 or newer');
    } finally {
      await p.store.clearMinimumVersion();
    }
  });

  it('/help lists every command in one ephemeral message, with the viewer and docs links', async () => {
    const answer = await run(slashCommand('help', member('newcomer')));
    expect(answer.type).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect(answer.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    for (const usage of [
      '`/claim [address]`',
      '`/httpkey [label]`',
      '`/keys`',
      '`/help`',
      '`/servers [owner]`',
      '`/revoke <server-id>`',
      '`/minimum-version set <version> | clear`',
      '`/blocklist add <seed> | remove <seed>`',
    ])
      expect(answer.content).toContain(usage);
    expect(answer.content).toContain(`Map viewer: ${PUBLIC_URL}/`);
    expect(answer.content).toContain(`${PUBLIC_URL}/docs`);
  });
});
