import { writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { ConfigError, exitAtStart, loadConfig, type Config } from '../runtime/config.ts';
import { listen } from '../runtime/listen.ts';
import { createLogger, drainLogs } from '../runtime/logger.ts';
import { STOP_BUDGET_MS } from '../runtime/process.ts';
import { embeddedPaths } from './embedded.ts';
import { portOpen } from './redis-server.ts';
import { SupervisedChild, type ChildSpec } from './supervisor/child.ts';
import { EmbeddedRedis } from './supervisor/embedded-redis.ts';
import { takeLock } from './supervisor/lock.ts';
import { OrphanGuard } from './supervisor/orphan-guard-process.ts';

// `npm start`: the whole service on one machine, supervised. With REDIS_URL unset it runs its own
// durable redis-server (data under DATA_DIR/redis, port EMBEDDED_REDIS_PORT); then the API, the
// generator worker and, when DISCORD_TOKEN is set, the chat bot, each as its own process. A
// process that dies is started again (Redis at once, the others with back-off); a crash loop of
// Redis, the API or the generator stops the service with exit code 1. SIGTERM or SIGINT stops
// everything within STOP_BUDGET_MS: the children first, then Redis. If this process is killed, an
// orphan guard and the children themselves end everything within seconds.

/** Children still running this long before the end of the budget are killed, then Redis is stopped. */
const CHILDREN_KILL_BEFORE_END_MS = 1_500;
/** Redis still running this long before the end of the budget is killed (its AOF is fsynced always). */
const REDIS_KILL_BEFORE_END_MS = 500;

/** Refuses a busy PORT up front, with one line, rather than as the API child's crash loop. */
async function checkPortFree(config: Config): Promise<void> {
  const server = createServer();
  await listen(server, config.PORT, config.HOST, () => {});
  await new Promise((resolve) => server.close(resolve));
}

async function checkEmbeddedPortFree(port: number): Promise<void> {
  // Nobody else holds this DATA_DIR's lock, so whatever listens there is not our Redis.
  if (await portOpen(port, 1_000)) {
    throw new ConfigError(
      `EMBEDDED_REDIS_PORT ${port} is already in use by another program (not this DATA_DIR's Redis): ` +
        'set EMBEDDED_REDIS_PORT to a free port, or REDIS_URL to use a Redis of your own',
    );
  }
}

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'start');
  const paths = embeddedPaths(config.DATA_DIR);
  const release = config.REDIS_URL ? () => {} : takeLock(paths.lockFile, config.EMBEDDED_REDIS_PORT);
  try {
    await checkPortFree(config);
    if (!config.REDIS_URL) await checkEmbeddedPortFree(config.EMBEDDED_REDIS_PORT);
  } catch (err) {
    release();
    throw err;
  }

  const guard = new OrphanGuard(logger);
  const children: SupervisedChild[] = [];
  let redis: EmbeddedRedis | undefined;
  let stopping = false;
  const stop = async (code: number, signal?: NodeJS.Signals) => {
    if (stopping) return;
    // Synchronously, before any exit is handled: a signal to the whole group (Ctrl-C, systemd's
    // control-group stop) reaches the children and Redis as well, and their exits are expected.
    stopping = true;
    redis?.expectStop();
    const stopAt = performance.now();
    const untilEnd = (beforeEndMs: number) =>
      Math.max(0, STOP_BUDGET_MS - beforeEndMs - (performance.now() - stopAt));
    if (signal) logger.info({ signal }, 'stopping every process');
    await Promise.all(children.map((child) => child.stop(untilEnd(CHILDREN_KILL_BEFORE_END_MS))));
    await redis?.stop(untilEnd(REDIS_KILL_BEFORE_END_MS));
    rmSync(paths.urlFile, { force: true });
    release();
    guard.close();
    logger.info({ exitCode: code }, 'stopped');
    await drainLogs(REDIS_KILL_BEFORE_END_MS);
    process.exit(code);
  };
  const crashLoop = (name: string) => {
    logger.error({ child: name }, `stopping the service: ${name} is in a crash loop`);
    void stop(1);
  };
  // From the start and for the whole stop: Ctrl-C also reaches every process of the group, and
  // npm passes a signal on as well; a repeated one must not end this process before its children.
  process.on('SIGINT', () => void stop(0, 'SIGINT'));
  process.on('SIGTERM', () => void stop(0, 'SIGTERM'));

  await guard.ready;
  if (stopping) return;
  let redisUrl = config.REDIS_URL;
  if (!redisUrl) {
    guard.watchProgram('redis-server', config.EMBEDDED_REDIS_PORT);
    redis = new EmbeddedRedis(paths.redisDir, config.EMBEDDED_REDIS_PORT, logger, {
      started: (pid) => guard.watch(pid),
      exited: (pid) => guard.forget(pid),
      crashLoop: () => crashLoop('the embedded redis-server'),
    });
    await redis.start();
    redisUrl = redis.url;
    writeFileSync(paths.urlFile, `${redisUrl}\n`);
  }
  if (stopping) return;

  const specs: ChildSpec[] = [
    { name: 'api', entry: 'api/main.ts', optional: false },
    { name: 'generator', entry: 'generator/main.ts', optional: false },
  ];
  if (config.DISCORD_TOKEN) specs.push({ name: 'bot', entry: 'bot/main.ts', optional: true });
  else logger.info('chat bot off: DISCORD_TOKEN is not set');
  let running = false;
  for (const spec of specs) {
    const child = new SupervisedChild(spec, { ...process.env, REDIS_URL: redisUrl }, logger, {
      started: (pid) => guard.watch(pid),
      exited: (pid) => guard.forget(pid),
      crashLoop: () => crashLoop(spec.name),
      message: (message) => {
        // "running" is a fact: said once the API listens.
        if (running || !('listening' in message)) return;
        running = true;
        logger.info(`seedblock running: http://localhost:${config.PORT}/  (API under ${config.API_PREFIX})`);
      },
    });
    children.push(child);
    child.start();
  }
}

main().catch(exitAtStart);
