import { writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { ConfigError, exitAtStart, loadConfig, type Config } from '../runtime/config.ts';
import { listen } from '../runtime/listen.ts';
import { createLogger, drainLogs } from '../runtime/logger.ts';
import { SHUTDOWN_GRACE_MS } from '../runtime/process.ts';
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
// everything within SHUTDOWN_GRACE_MS (plus Redis's own stop). If this process is killed, an
// orphan guard and the children themselves end everything within seconds.

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
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await Promise.all(children.map((child) => child.stop(SHUTDOWN_GRACE_MS)));
    await redis?.stop();
    rmSync(paths.urlFile, { force: true });
    release();
    guard.close();
    logger.info({ exitCode: code }, 'seedblock stopped: every process and the embedded Redis are gone');
    await drainLogs(1_000);
    process.exit(code);
  };
  const crashLoop = (name: string) => {
    logger.error({ child: name }, `stopping the service: ${name} is in a crash loop`);
    void stop(1);
  };
  // From the start and for the whole stop: Ctrl-C also reaches every process of the group, and
  // npm passes a signal on as well; a repeated one must not end this process before its children.
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  await guard.ready;
  if (stopping) return;
  let redisUrl = config.REDIS_URL;
  if (!redisUrl) {
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
