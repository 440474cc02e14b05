import { http, HttpResponse } from 'msw';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API, fakeDiscord } from './support/fake-discord.ts';
import { deliver, member, slashCommand } from './support/interactions.ts';
import { ephemeralReply } from './support/replies.ts';
import { startTestBot, type TestBot } from './support/test-bot.ts';

// A failure on our side is answered (and logged, without secrets), never left as "The application
// did not respond".

const discord = fakeDiscord();
const logLines: string[] = [];
let t: TestBot;

beforeAll(async () => {
  discord.server.listen({ onUnhandledRequest: 'error' });
  t = await startTestBot({}, pino({ level: 'warn' }, { write: (line: string) => logLines.push(line) }));
});
afterEach(() => discord.reset());
afterAll(async () => {
  await t?.close();
  discord.server.close();
});

describe('failures', () => {
  it('logs a failed reply without the code or the interaction token, and tells the user', async () => {
    // Discord refuses the first response (the one carrying the code).
    discord.server.use(
      http.post(
        `${API}/interactions/:id/:token/callback`,
        () => HttpResponse.json({ message: 'Unknown interaction', code: 10062 }, { status: 404 }),
        { once: true },
      ),
    );
    const payload = slashCommand('claim', member('operator'));
    await deliver(t.bot, payload);

    expect(ephemeralReply(discord, payload)).toBe('Something went wrong on our side; it was logged.');
    const logged = logLines.join('\n');
    expect(logged).toContain('interaction failed');
    expect(logged).toContain('"discordCode":10062');
    expect(logged).toContain('[token]');
    expect(logged).not.toContain(payload.token);
    expect(logged).not.toMatch(/[0-9A-Z]{5}-[0-9A-Z]{5}/);
  });

  it('answers a command it does not know (left over from an older registration)', async () => {
    const payload = slashCommand('retired', member('operator'));
    await deliver(t.bot, payload);
    expect(ephemeralReply(discord, payload)).toBe('This command is not known to the bot any more.');
  });

  it('tells the user when the database is unavailable', async () => {
    t.store.ctx.redis.disconnect();
    const payload = slashCommand('claim', member('operator'));
    await deliver(t.bot, payload);
    expect(ephemeralReply(discord, payload)).toBe(
      'The database is briefly unavailable; try again in a moment.',
    );
  });
});
