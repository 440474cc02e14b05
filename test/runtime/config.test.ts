import express from 'express';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ConfigError, loadConfig, loadSettings } from '../../runtime/config.ts';
import { parseSentinelUrl } from '../../store/redis-url.ts';
import { oneJsonLine, runTs } from '../support/child.ts';

// README "Configuration": every setting is an environment variable parsed by one schema; a bad
// value stops start-up with a message naming the variable.

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has the defaults of the README table', () => {
    expect(loadConfig({})).toMatchObject({
      PORT: 8080,
      HOST: '::',
      REDIS_URL: undefined,
      DATA_DIR: '.data',
      EMBEDDED_REDIS_PORT: 6390,
      REDIS_PREFIX: 'sb:',
      API_PREFIX: '/api',
      TRUST_PROXY: 'loopback',
      ADMIN_TOKEN: undefined,
      SEEDBLOCK_CLOCK: 'system',
      NODE_ENV: 'development',
      RELEASES_URL: undefined,
      DISCORD_API_URL: 'https://discord.com/api',
      PROBE_KIND: 'a2s',
      PROBE_TIMEOUT_MS: 2000,
      PROBE_ALLOW_PRIVATE: false,
      QUEUE_MAX: 10_000,
      RATE_LIMIT_MULTIPLIER: 1,
      KEEP_ALIVE_TIMEOUT_MS: 65_000,
      MAX_CONNECTIONS: 10_000,
      MAX_IDLE_CONNECTIONS_PER_PEER: 64,
      LOG_LEVEL: 'info',
    });
  });

  it('PORT takes a port number, 0 for any free port', () => {
    expect(loadConfig({ PORT: '0' }).PORT).toBe(0);
    expect(loadConfig({ PORT: '65535' }).PORT).toBe(65_535);
    expect(loadConfig({ PORT: '3000' }).PORT).toBe(3000);
  });

  it('an empty variable counts as unset', () => {
    expect(loadConfig({ PORT: '', TRUST_PROXY: '', REDIS_URL: '' })).toMatchObject({
      PORT: 8080,
      TRUST_PROXY: 'loopback',
      REDIS_URL: undefined,
    });
  });

  it.each(['abc', '70000', '65536', '-1', '80.5', ' ', '0x50', '8080 '])(
    'PORT=%s → ConfigError naming PORT',
    (value) => {
      expect(configError({ PORT: value }).message).toMatch(/\bPORT\b/);
    },
  );

  it.each([
    'http://127.0.0.1:6379',
    'localhost:6379',
    '127.0.0.1',
    'redis-sentinel://127.0.0.1:26379',
    'redis-sentinel://127.0.0.1:99999#seedblock',
    'redis-sentinel://#seedblock',
    'redis-sentinel://a:1,,b:2#seedblock',
  ])('REDIS_URL=%s → ConfigError naming REDIS_URL', (value) => {
    expect(configError({ REDIS_URL: value }).message).toMatch(/\bREDIS_URL\b/);
  });

  it('accepts redis:// and rediss:// URLs', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(loadConfig({ REDIS_URL: 'rediss://cache.example.test:6380' }).REDIS_URL).toBe(
      'rediss://cache.example.test:6380',
    );
  });

  it('accepts redis-sentinel:// URLs and reads their Sentinels, master name, auth and db', () => {
    const url =
      'redis-sentinel://:s3cret@10.0.0.1:26380,[fd00::1],sentinel.example.test:26381/2#seed%20block';
    expect(loadConfig({ REDIS_URL: url }).REDIS_URL).toBe(url);
    expect(parseSentinelUrl(url)).toEqual({
      sentinels: [
        { host: '10.0.0.1', port: 26380 },
        { host: 'fd00::1', port: 26379 },
        { host: 'sentinel.example.test', port: 26381 },
      ],
      name: 'seed block',
      password: 's3cret',
      db: 2,
    });
    expect(parseSentinelUrl('redis-sentinel://ops:pw@127.0.0.1#seedblock')).toEqual({
      sentinels: [{ host: '127.0.0.1', port: 26379 }],
      name: 'seedblock',
      username: 'ops',
      password: 'pw',
      db: 0,
    });
    expect(parseSentinelUrl('redis://127.0.0.1:6379')).toBeNull();
  });

  it('the manual clock is refused with NODE_ENV=production, naming SEEDBLOCK_CLOCK', () => {
    expect(configError({ SEEDBLOCK_CLOCK: 'manual', NODE_ENV: 'production' }).message).toMatch(
      /\bSEEDBLOCK_CLOCK\b/,
    );
    expect(loadConfig({ SEEDBLOCK_CLOCK: 'manual', NODE_ENV: 'test' }).SEEDBLOCK_CLOCK).toBe('manual');
    expect(loadConfig({ SEEDBLOCK_CLOCK: 'system', NODE_ENV: 'production' }).SEEDBLOCK_CLOCK).toBe('system');
  });

  it.each([
    ['ADMIN_TOKEN', 'short'],
    ['REDIS_PREFIX', 'has spaces'],
    ['API_PREFIX', 'api/'],
    ['SEEDBLOCK_CLOCK', 'fast'],
    ['RELEASES_URL', 'not a url'],
    ['DISCORD_API_URL', 'ftp://discord.example/api'],
    ['PROBE_ALLOW_PRIVATE', 'yes'],
    ['RATE_LIMIT_MULTIPLIER', '0'],
    ['LOG_LEVEL', 'loud'],
    ['EMBEDDED_REDIS_PORT', '0'],
    ['EMBEDDED_REDIS_PORT', '70000'],
    ['DISCORD_TOKEN', 'abc'],
    ['DISCORD_TOKEN', 'Bot MTIzNDU2Nzg5MDEyMzQ1Njc4.GtEsTs.abcdefghijklmnopqrstuvwxyz'],
  ])('%s=%s → ConfigError naming it', (name, value) => {
    expect(configError({ [name]: value }).message).toMatch(new RegExp(`\\b${name}\\b`));
  });

  it('MAX_IDLE_CONNECTIONS_PER_PEER must leave sockets for other peers: below MAX_CONNECTIONS', () => {
    expect(configError({ MAX_CONNECTIONS: '64' }).message).toMatch(
      /\bMAX_IDLE_CONNECTIONS_PER_PEER: below MAX_CONNECTIONS \(64\)/,
    );
    expect(loadConfig({ MAX_CONNECTIONS: '300' })).toMatchObject({
      MAX_CONNECTIONS: 300,
      MAX_IDLE_CONNECTIONS_PER_PEER: 64,
    });
    expect(loadConfig({ MAX_CONNECTIONS: '10', MAX_IDLE_CONNECTIONS_PER_PEER: '9' }).MAX_CONNECTIONS).toBe(
      10,
    );
  });

  it('DISCORD_TOKEN without DISCORD_APPLICATION_ID is refused, naming DISCORD_APPLICATION_ID', () => {
    const token = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GtEsTs.abcdefghijklmnopqrstuvwxyz';
    expect(configError({ DISCORD_TOKEN: token }).message).toMatch(/\bDISCORD_APPLICATION_ID: must be set/);
    expect(loadConfig({ DISCORD_TOKEN: token, DISCORD_APPLICATION_ID: '123' }).DISCORD_TOKEN).toBe(token);
  });

  it('names every bad variable at once', () => {
    const message = configError({ PORT: 'abc', REDIS_URL: 'http://x', TRUST_PROXY: 'banana' }).message;
    for (const name of ['PORT', 'REDIS_URL', 'TRUST_PROXY']) expect(message).toContain(name);
  });
});

describe('TRUST_PROXY', () => {
  // What the README allows: true, false, a hop count, or addresses/subnets like
  // "loopback, 10.0.0.0/8". Every value accepted must also be one express can use.
  const GOOD: [string, boolean | number | string][] = [
    ['true', true],
    ['false', false],
    ['0', 0],
    ['2', 2],
    ['loopback', 'loopback'],
    ['loopback, 10.0.0.0/8', 'loopback, 10.0.0.0/8'],
    ['linklocal,uniquelocal', 'linklocal,uniquelocal'],
    ['203.0.113.7', '203.0.113.7'],
    ['::1', '::1'],
    ['fe80::/10', 'fe80::/10'],
    ['10.0.0.0/255.0.0.0', '10.0.0.0/255.0.0.0'],
    ['192.0.2.0/24, 2001:db8::/32', '192.0.2.0/24, 2001:db8::/32'],
  ];

  it.each(GOOD)('%s is accepted and usable by express', (value, parsed) => {
    const config = loadConfig({ TRUST_PROXY: value });
    expect(config.TRUST_PROXY).toEqual(parsed);
    expect(() => express().set('trust proxy', config.TRUST_PROXY)).not.toThrow();
  });

  it.each([
    'banana',
    'TRUE',
    'loopback,',
    'loopback, nonsense',
    '300.1.1.1',
    '10.0.0.0/33',
    '10.0.0.0/0',
    '::1/129',
    '10.0.0.0/255.0.255.0',
    '-1',
    '1.5.x',
  ])('%s → ConfigError naming TRUST_PROXY', (value) => {
    expect(configError({ TRUST_PROXY: value }).message).toMatch(/\bTRUST_PROXY\b/);
  });
});

describe('loadSettings', () => {
  it('parses only the settings named, whatever the others hold', () => {
    expect(loadSettings(['VIEWER_SOURCE_MAPS'], { VIEWER_SOURCE_MAPS: '1', PORT: 'abc' })).toEqual({
      VIEWER_SOURCE_MAPS: true,
    });
    expect(loadSettings(['VIEWER_SOURCE_MAPS', 'PORT'], {})).toEqual({
      VIEWER_SOURCE_MAPS: false,
      PORT: 8080,
    });
  });

  it('names a bad one as loadConfig does', () => {
    expect(() => loadSettings(['VIEWER_SOURCE_MAPS'], { VIEWER_SOURCE_MAPS: 'maybe' })).toThrow(
      /^invalid configuration:\n {2}VIEWER_SOURCE_MAPS: /,
    );
  });
});

describe('every entry point with bad variables', () => {
  // Each in a child process, as its npm script runs it. Were the config accepted, a server would
  // serve on loopback until runTs kills it, which fails the test.
  const bad = {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: 'abc',
    TRUST_PROXY: 'banana',
    DISCORD_TOKEN: 'not-a-token',
    REDIS_URL: inject('redisUrl'),
    REDIS_PREFIX: 'tbadconfig:',
    LOG_LEVEL: 'silent',
  };
  const named = ['PORT', 'TRUST_PROXY', 'DISCORD_TOKEN', 'DISCORD_APPLICATION_ID'];

  /** One message: its first line says so, each further line names one variable; no stack. */
  function oneMessage(text: string, names: string[]): void {
    const lines = text.trim().split('\n');
    expect(lines[0], text).toBe('invalid configuration:');
    expect(lines.slice(1).map((line) => /^ {2}([A-Z_]+): \S/.exec(line)?.[1])).toEqual(names);
    expect(text).not.toMatch(/\bat |ConfigError|Node\.js v/);
  }

  it.each([
    ['npm start', 'scripts/start.ts'],
    ['npm run api', 'api/main.ts'],
    ['npm run generator', 'generator/main.ts'],
    ['npm run bot', 'bot/main.ts'],
  ])('%s: exit 1, one message on stderr naming each, no stack', async (_, entry) => {
    const result = await runTs(entry, [], bad, 30_000);
    expect(result, result.stderr).toMatchObject({ code: 1, signal: null, stdout: '' });
    oneMessage(result.stderr, named);
  });

  it('npm run admin: exit 1, the message as its one JSON line', async () => {
    const result = await runTs('scripts/admin.ts', ['blocklist', 'list'], bad, 30_000);
    expect(result, result.stderr).toMatchObject({ code: 1, signal: null, stderr: '' });
    oneMessage(String(oneJsonLine(result.stdout).error), named);
  });

  it("the viewer build (npm start's prestart) checks its own setting only", async () => {
    // It fails on its own setting, so it builds nothing (the tests' dist stays as it is).
    const result = await runTs('viewer/build.ts', [], { ...bad, VIEWER_SOURCE_MAPS: 'maybe' }, 30_000);
    expect(result, result.stderr).toMatchObject({ code: 1, signal: null, stdout: '' });
    oneMessage(result.stderr, ['VIEWER_SOURCE_MAPS']);
  });
});
