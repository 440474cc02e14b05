import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { entryArgs } from '../support/node-args.ts';
import { REPO_ROOT } from '../support/repo.ts';
import { BOT_TOKEN } from './support/snowflakes.ts';

// `npm run bot` refuses to start without its Discord settings, naming the missing variable
// (before it connects to anything).

function runBot(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; stderr: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('DISCORD_') && k !== 'REDIS_URL'),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, entryArgs('bot/main.ts', args), {
      cwd: REPO_ROOT,
      env: { ...clean, LOG_LEVEL: 'silent', REDIS_URL: 'redis://127.0.0.1:1', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

describe('bot/main.ts', () => {
  it('names DISCORD_TOKEN or DISCORD_APPLICATION_ID when missing, and a token that is no bot token', async () => {
    const [noToken, noApplication, notAToken] = await Promise.all([
      runBot({ DISCORD_APPLICATION_ID: '1' }),
      runBot({ DISCORD_TOKEN: BOT_TOKEN }),
      runBot({ DISCORD_TOKEN: 'abc', DISCORD_APPLICATION_ID: '1' }),
    ]);
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toMatch(/^DISCORD_TOKEN is not set/);
    // The config schema refuses these, so `npm start` refuses them too, before anything starts.
    expect(noApplication.code).toBe(1);
    expect(noApplication.stderr).toMatch(
      /^invalid configuration:\n {2}DISCORD_APPLICATION_ID: must be set with DISCORD_TOKEN/,
    );
    expect(notAToken.code).toBe(1);
    expect(notAToken.stderr).toMatch(/^invalid configuration:\n {2}DISCORD_TOKEN: not a bot token/);
  });

  it('with --if-configured (compose, restart on failure) says what is missing and exits 0, so it stays down', async () => {
    const [noToken, notAToken] = await Promise.all([
      runBot({}, ['--if-configured']),
      runBot({ DISCORD_TOKEN: 'abc', DISCORD_APPLICATION_ID: '1' }, ['--if-configured']),
    ]);
    expect(noToken).toEqual({ code: 0, stderr: expect.stringMatching(/^DISCORD_TOKEN is not set[^\n]*\n$/) });
    expect(notAToken.code).toBe(0);
    expect(notAToken.stderr).toMatch(/^invalid configuration:\n {2}DISCORD_TOKEN: not a bot token/);
  });
});
