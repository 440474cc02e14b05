import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_KEYS_PER_OWNER } from '../../store/index.ts';
import { fakeDiscord } from './support/fake-discord.ts';
import { deliver, member, option, slashCommand } from './support/interactions.ts';
import { ephemeralReply } from './support/replies.ts';
import { startTestBot, type TestBot } from './support/test-bot.ts';

// /claim and /httpkey, through real discord.js objects: the secrets in the replies are real.

const discord = fakeDiscord();
let t: TestBot;

beforeAll(async () => {
  discord.server.listen({ onUnhandledRequest: 'error' });
  t = await startTestBot();
});
afterEach(() => discord.reset());
afterAll(async () => {
  await t?.close();
  discord.server.close();
});

const CODE = /`([0-9A-Z]{5}-[0-9A-Z]{5})`/;

async function run(payload: ReturnType<typeof slashCommand>): Promise<string> {
  await deliver(t.bot, payload);
  return ephemeralReply(discord, payload);
}

describe('/claim', () => {
  it('gives a code that registers the server wherever the plugin claims from', async () => {
    const reply = await run(slashCommand('claim', member('operator')));
    const code = CODE.exec(reply)?.[1];
    expect(code).toBeDefined();
    expect(reply).toContain(`claim_code: "${code}"`);
    expect(reply).toMatch(/expires <t:\d+:R>/);

    const claimed = await t.store.claimWithCode({ code: code!, ip: '198.51.100.20', port: 7777 });
    expect(claimed.status).toBe('verified');
    // One use only.
    expect((await t.store.claimWithCode({ code: code!, ip: '198.51.100.20', port: 7777 })).status).toBe(
      'invalid code',
    );
  });

  it('with an address gives an old-style code bound to it', async () => {
    const reply = await run(
      slashCommand('claim', member('operator'), [option.string('address', '203.0.113.5:7777')]),
    );
    expect(reply).toContain('203.0.113.5:7777');
    const code = CODE.exec(reply)![1]!;

    expect((await t.store.claimWithCode({ code, ip: '203.0.113.5', port: 7777 })).status).toBe('verified');
  });

  it('with an address sends a claim from elsewhere to review', async () => {
    const reply = await run(
      slashCommand('claim', member('operator'), [option.string('address', '203.0.113.6:7777')]),
    );
    const code = CODE.exec(reply)![1]!;

    expect(await t.store.claimWithCode({ code, ip: '203.0.113.6', port: 7778 })).toMatchObject({
      status: 'review',
      reason: 'port_mismatch',
    });
  });

  it('accepts IPv6 in brackets, written as the API sees request IPs', async () => {
    const reply = await run(
      slashCommand('claim', member('operator'), [option.string('address', '[2001:DB8:0:0::7]:7777')]),
    );
    expect(reply).toContain('[2001:db8::7]:7777');
    const code = CODE.exec(reply)![1]!;
    expect((await t.store.claimWithCode({ code, ip: '2001:db8::7', port: 7777 })).status).toBe('verified');
  });

  it('folds an IPv4-mapped IPv6 address to plain IPv4', async () => {
    const reply = await run(
      slashCommand('claim', member('operator'), [option.string('address', '[::ffff:203.0.113.8]:7777')]),
    );
    expect(reply).toContain('Only 203.0.113.8:7777 can claim with it');
  });

  it.each([
    ['203.0.113.5', 'not an address'],
    ['203.0.113.5:0', 'port must be a number 1..65535'],
    ['203.0.113.5:65536', 'port must be a number 1..65535'],
    ['999.1.1.1:7777', 'not an IP address'],
    ['example.com:7777', 'not an IP address'],
    ['2001:db8::7:7777', 'not an address'],
    ['0.0.0.0:7777', 'not the address of one server'],
  ])('refuses %s with a clear message and issues no code', async (address, message) => {
    const reply = await run(slashCommand('claim', member('operator'), [option.string('address', address)]));
    expect(reply).toContain(message);
    expect(reply).not.toMatch(CODE);
  });
});

describe('/httpkey', () => {
  it('gives a key, shown once, that authenticates as an HTTP key owned by the user', async () => {
    const user = member('toolmaker');
    const reply = await run(slashCommand('httpkey', user, [option.string('label', 'my tracker')]));
    const credential = /`(sbk_[0-9A-Za-z]+)`/.exec(reply)?.[1];
    expect(credential).toBeDefined();
    expect(reply).toMatch(/shown this once/);

    const key = await t.store.authenticate(credential!);
    expect(key).toMatchObject({ kind: 'http', ip: null });
    expect(reply).toContain(key!.serverId);
    expect(await t.store.getRegistration(key!.serverId)).toMatchObject({
      owner: user.id,
      clientName: 'my tracker',
    });
  });

  it(`refuses a user's key past ${HTTP_KEYS_PER_OWNER} live ones, with a clear message`, async () => {
    const user = member('hoarder');
    for (let i = 0; i < HTTP_KEYS_PER_OWNER; i++) {
      expect(await run(slashCommand('httpkey', user))).toMatch(/sbk_/);
    }
    const refused = await run(slashCommand('httpkey', user));
    expect(refused).not.toMatch(/sbk_/);
    expect(refused).toContain(`already have ${HTTP_KEYS_PER_OWNER} live HTTP keys`);
    expect(refused).toMatch(/revoke/i);

    // The limit is per user.
    expect(await run(slashCommand('httpkey', member('someone else')))).toMatch(/sbk_/);
  });
});
