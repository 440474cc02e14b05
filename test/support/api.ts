import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { createLogger, type Logger } from '../../runtime/logger.ts';
import { startApiServer, type ApiSeams } from '../../api/server.ts';
import { loadConfig, type Config } from '../../runtime/config.ts';
import { manualClock } from '../../store/clock.ts';
import { connectRedis, redisReady } from '../../store/index.ts';

export type TestApi = Awaited<ReturnType<typeof startApiServer>> & {
  config: Config;
  /** `${url}${API_PREFIX}` */
  base: string;
};

/** A fresh key namespace, so suites running side by side never see each other's data. */
export function testPrefix(): string {
  return `t${randomUUID().slice(0, 8)}:`;
}

export function testEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    REDIS_URL: inject('redisUrl'),
    REDIS_PREFIX: testPrefix(),
    SEEDBLOCK_CLOCK: 'manual',
    LOG_LEVEL: 'silent',
    ...overrides,
  };
}

/**
 * An API process in this test process: real HTTP over loopback, real Redis, manual clock. Its logs
 * go nowhere unless a `logger` is given; `seams` stand in for what lies outside (the probe).
 */
export async function startTestApi(
  overrides: Record<string, string> = {},
  logger: Logger = createLogger('silent', 'test'),
  seams: ApiSeams = {},
): Promise<TestApi> {
  const config = loadConfig(testEnv(overrides));
  const api = await startApiServer(config, logger, seams);
  return Object.assign(api, { config, base: `${api.url}${config.API_PREFIX}` });
}

/**
 * An in-process test API whose manual clock already reads `iso` when it starts, so its uptime
 * (2.8 `uptimeSec`) counts from there. Overrides as for startTestApi (REDIS_PREFIX to share).
 */
export async function startApiAt(iso: string, overrides: Record<string, string> = {}): Promise<TestApi> {
  const prefix = overrides.REDIS_PREFIX ?? testPrefix();
  const redis = connectRedis({ url: inject('redisUrl'), name: 'test-clock' });
  try {
    await redisReady(redis);
    await manualClock(redis, prefix).set(Date.parse(iso));
  } finally {
    redis.disconnect();
  }
  return startTestApi({ ...overrides, REDIS_PREFIX: prefix });
}
