import { createLogger } from '../runtime/logger.ts';
import { resolveRedisUrl } from '../scripts/embedded.ts';
import { ConfigError, exitAtStart, loadConfig } from '../runtime/config.ts';
import { connectRedis, redisReady } from '../store/index.ts';
import { isStopping, stopOnSignal, stopWithSupervisor, storeFromConfig } from '../runtime/process.ts';
import { logRedisOutages } from '../runtime/redis-outages.ts';
import { createBot } from './bot.ts';
import { loggableError } from './log-error.ts';
import { discordSettings, MissingSettingError } from './settings.ts';
import type { Worker } from './worker-loop.ts';

// `npm run bot`: the chat bot. Needs DISCORD_TOKEN and DISCORD_APPLICATION_ID, and REDIS_URL (or
// the Redis `npm start` runs).

async function main() {
  stopWithSupervisor();
  const config = loadConfig({ ...process.env, REDIS_URL: resolveRedisUrl() });
  // Checked before anything connects, so a missing setting is the one message the operator sees.
  discordSettings(config);
  if (!config.REDIS_URL)
    throw new MissingSettingError('REDIS_URL is not set and no `npm start` Redis was found');
  const logger = createLogger(config.LOG_LEVEL, 'bot');
  const store = storeFromConfig(config, 'seedblock-bot');
  logRedisOutages(store.ctx.redis, logger, config.REDIS_URL, isStopping);
  const bot = createBot({ config, store, logger });
  // One connection per blocking read (BLMOVE of review notices, XREAD of the audit trail).
  const blocking = connectRedis({ url: config.REDIS_URL, name: 'seedblock-bot-notices', blocking: true });
  const auditBlocking = connectRedis({ url: config.REDIS_URL, name: 'seedblock-bot-audit', blocking: true });
  await Promise.all([store.ctx.redis, blocking, auditBlocking].map((r) => redisReady(r, 5_000))).catch(() =>
    logger.warn({ redis: 'not ready' }, 'starting without Redis; commands fail until it is reachable'),
  );

  // Handled from here on: a stop during login or registration still ends everything cleanly.
  const workers: Worker[] = [];
  stopOnSignal(logger, 'shutting down', async () => {
    await Promise.all(workers.map((w) => w.stop()));
    blocking.disconnect();
    auditBlocking.disconnect();
    await bot.idle();
    await bot.destroy();
    await store.close();
  });

  await bot.login();
  // Commands registered earlier keep working, so a failed registration is logged, not fatal.
  await bot
    .registerCommands()
    .catch((err: unknown) => logger.error({ err: loggableError(err) }, 'registering slash commands failed'));
  await bot.checkSetup();
  if (isStopping()) return;
  const notices = bot.startReviewNotices(blocking);
  if (notices) workers.push(notices);
  workers.push(bot.startAuditFeed(auditBlocking));
}

try {
  await main();
} catch (err) {
  // compose's bot (`--if-configured`, restarted on failure only): without its settings it stays
  // down after its one line, since restarting cannot fix them; a crash still exits 1.
  if (err instanceof ConfigError && process.argv.includes('--if-configured')) {
    console.error(err.message);
    process.exit(0);
  }
  exitAtStart(err);
}
