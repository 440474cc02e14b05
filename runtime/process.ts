import type { Config } from './config.ts';
import { ConfigError, replicasAck } from './config.ts';
import { openStore, type Store } from '../store/index.ts';
import { drainLogs, type Logger } from './logger.ts';

// What every long-running process (API, generator, bot) and the CLI do alike at start and stop.

/** The store of one process, as its configuration says; `name` shows in CLIENT LIST. */
export function storeFromConfig(config: Config, name: string): Store {
  if (!config.REDIS_URL) throw new ConfigError('REDIS_URL is not set (npm start sets it for you)');
  return openStore({
    redisUrl: config.REDIS_URL,
    prefix: config.REDIS_PREFIX,
    clock: config.SEEDBLOCK_CLOCK,
    name,
    replicaAcks: { replicas: replicasAck(config), timeoutMs: config.REDIS_REPLICAS_ACK_TIMEOUT_MS },
  });
}

/**
 * How long a process may take to stop after SIGTERM or SIGINT: it finishes what is in hand
 * within it, else it exits anyway. `npm start` gives its children as long, then kills them.
 */
export const SHUTDOWN_GRACE_MS = 15_000;

/** How long an exiting process waits for its last log lines to be written (within the grace). */
const LOG_DRAIN_MS = 1_000;

/** Exits once the log lines written so far are out (or LOG_DRAIN_MS passed). */
async function exitAfterLogs(code: number): Promise<never> {
  await drainLogs(LOG_DRAIN_MS);
  process.exit(code);
}

/**
 * Runs `stop` once on SIGTERM or SIGINT, then exits 0 (1 if stopping failed). SHUTDOWN_GRACE_MS
 * bounds the whole stop, so whatever hangs (a peer, Redis), the process still ends. A repeated
 * signal (Ctrl-C reaches the whole process group, and `npm start` passes it on as well) changes
 * nothing: the stop under way goes on.
 */
export function stopOnSignal(logger: Logger, message: string, stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, message);
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    try {
      await stop();
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      await exitAfterLogs(1);
    }
    await exitAfterLogs(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** How long a process whose supervisor died may take to stop before it exits anyway. */
const ORPHAN_EXIT_MS = 3_000;

/**
 * Under `npm start` (a process with an IPC channel to it): the channel closing means the
 * supervisor died, even by SIGKILL, which it cannot pass on. Then this process stops as on
 * SIGTERM, and exits within ORPHAN_EXIT_MS whatever it was doing, so nothing keeps serving.
 */
export function stopWithSupervisor(): void {
  if (!process.send) return;
  process.once('disconnect', () => {
    setTimeout(() => process.exit(1), ORPHAN_EXIT_MS).unref();
    process.kill(process.pid, 'SIGTERM');
  });
  // The channel alone does not keep a process alive: each one ends as it would without it.
  process.channel?.unref();
}

/** What a child tells `npm start` over the IPC channel (nothing when run on its own). */
export interface SupervisorMessage {
  /** The API listens on this port. */
  listening: number;
}

export function tellSupervisor(message: SupervisorMessage): void {
  if (process.connected) process.send?.(message);
}
