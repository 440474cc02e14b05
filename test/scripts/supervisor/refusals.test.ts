// Issue 18, point 1: `npm start` refuses what it cannot run, in under 5 s, with exit 1 and one
// line naming the variable and the fix (no stack trace): a busy PORT, a busy EMBEDDED_REDIS_PORT,
// a second start on the same DATA_DIR, and the bot's settings.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateRedis, type PrivateRedis } from '../../support/private-redis.ts';
import { removeDataDir, startSupervisor, tempDataDir, type Supervisor } from '../../support/supervisor.ts';

/** A listener that accepts connections and never answers: not a Redis, not an HTTP server. */
async function silentListener(): Promise<Server> {
  const server = createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const portOf = (server: Server) => (server.address() as { port: number }).port;

/** Starts `npm start` expecting a refusal: its exit within 5 s, and its stderr. */
async function refused(env: Record<string, string>, options: Parameters<typeof startSupervisor>[1] = {}) {
  const startedAt = performance.now();
  const service = await startSupervisor(env, { ...options, waitRunning: false });
  const exit = await service.exited;
  const ms = performance.now() - startedAt;
  const stderr = service.stderr();
  expect(exit, stderr).toEqual({ code: 1, signal: null });
  expect(ms, 'refused within 5 s').toBeLessThan(5_000);
  expect(stderr.trim().split('\n'), 'one line').toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(service.stdout(), 'nothing started').not.toMatch(/started \(pid/);
  return stderr.trim();
}

let silent: Server;
let foreignRedis: PrivateRedis;
let dataDir: string;

beforeAll(async () => {
  [silent, foreignRedis] = await Promise.all([silentListener(), startPrivateRedis({ name: 'foreign' })]);
  dataDir = tempDataDir();
});
afterAll(async () => {
  silent?.close();
  await foreignRedis?.stop();
  removeDataDir(dataDir);
});

describe('npm start refuses', () => {
  it('a busy PORT', async () => {
    expect(await refused({}, { port: portOf(silent), dataDir })).toMatch(
      /^PORT \d+ is already in use .*set PORT to a free port$/,
    );
  });

  it('an EMBEDDED_REDIS_PORT held by a listener that never answers', async () => {
    expect(await refused({}, { redisPort: portOf(silent), dataDir })).toMatch(
      /^EMBEDDED_REDIS_PORT \d+ is already in use by another program .*set EMBEDDED_REDIS_PORT to a free port/,
    );
  });

  it('an EMBEDDED_REDIS_PORT held by a Redis that is not its own', async () => {
    expect(await refused({}, { redisPort: foreignRedis.port, dataDir })).toMatch(
      /^EMBEDDED_REDIS_PORT \d+ is already in use by another program/,
    );
    expect(await foreignRedis.observer.dbsize(), 'that Redis untouched').toBe(0);
  });

  it.each([
    [{ DISCORD_TOKEN: 'abc', DISCORD_APPLICATION_ID: '123' }, /^ {2}DISCORD_TOKEN: not a bot token/m],
    [
      { DISCORD_TOKEN: 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GtEsTs.abcdefghijklmnopqrstuvwxyz' },
      /^ {2}DISCORD_APPLICATION_ID: must be set with DISCORD_TOKEN/m,
    ],
  ])('the bot settings %o, before anything starts', async (env, message) => {
    const service = await startSupervisor(env, { dataDir, waitRunning: false });
    expect(await service.exited).toEqual({ code: 1, signal: null });
    expect(service.stderr()).toMatch(/^invalid configuration:\n/);
    expect(service.stderr()).toMatch(message);
    expect(service.stdout()).not.toMatch(/started \(pid/);
  });
});

describe('one embedded Redis per DATA_DIR', () => {
  let first: Supervisor;
  beforeAll(async () => {
    first = await startSupervisor({}, { dataDir });
  }, 90_000);
  afterAll(() => first?.stop(20_000));

  it('a second npm start on it refuses, naming the running one', async () => {
    const message = await refused({}, { dataDir });
    expect(message).toBe(
      `another npm start is running on this DATA_DIR (pid ${first.process.pid}, embedded Redis on port ${first.redisPort}): ` +
        'stop it first, or set REDIS_URL to run on a Redis of your own',
    );
    expect(first.alive()).toBe(true);
  });

  it('unless REDIS_URL is set: then it runs on that Redis', async () => {
    const prefix = 'sup-second:';
    const second = await startSupervisor({ REDIS_URL: foreignRedis.url, REDIS_PREFIX: prefix }, { dataDir });
    try {
      expect((await fetch(`${second.base}/jobs/7`)).status).toBe(200);
      expect(await foreignRedis.observer.keys(`${prefix}*`)).not.toHaveLength(0);
      expect(second.pidOf('redis'), 'no embedded Redis of its own').toBeUndefined();
    } finally {
      expect(await second.stop(20_000)).toEqual({ code: 0, signal: null });
    }
    expect(first.alive()).toBe(true);
  });
});
