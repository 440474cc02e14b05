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
 * Every process (API, generator, bot, `npm start`) is gone within this long of SIGTERM or SIGINT,
 * whatever its clients do: inside the 10 s container engines and systemd give before SIGKILL
 * (compose's stop_grace_period and the units' TimeoutStopSec say 10 s).
 */
export const STOP_BUDGET_MS = 8_000;

/**
 * The API lets requests in flight finish for this long after the signal, then cuts their
 * connections (a slow upload, a keep-alive client): the rest of the budget closes Redis and logs.
 */
export const DRAIN_MS = STOP_BUDGET_MS / 2;

/**
 * A stop still under way this long after the signal (a peer or Redis that hangs) is abandoned:
 * the process exits anyway, and `npm start` has the rest of the budget to stop its Redis.
 */
export const STOP_DEADLINE_MS = STOP_BUDGET_MS - 2_000;

/** How long an exiting process waits for its last log lines to be written (within the budget). */
const LOG_DRAIN_MS = 1_000;
// STOP_DEADLINE_MS + LOG_DRAIN_MS stays within STOP_BUDGET_MS.

/** Exits once the log lines written so far are out (or LOG_DRAIN_MS passed). */
async function exitAfterLogs(code: number): Promise<never> {
  await drainLogs(LOG_DRAIN_MS);
  process.exit(code);
}

let stopping = false;

/**
 * True once this process is stopping: Redis going away then is expected (Ctrl-C and systemd's
 * control-group stop signal the embedded Redis too), not an error to log.
 */
export function isStopping(): boolean {
  return stopping;
}

/**
 * Runs `stop` once on SIGTERM or SIGINT, logs `stopped` and exits 0 (1 if stopping failed).
 * STOP_DEADLINE_MS bounds the whole stop, so whatever hangs (a peer, Redis), the process still
 * ends within STOP_BUDGET_MS. A repeated signal (Ctrl-C reaches the whole process group, and
 * `npm start` passes it on as well) changes nothing: the stop under way goes on.
 */
export function stopOnSignal(logger: Logger, message: string, stop: () => Promise<void>): void {
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, message);
    setTimeout(() => {
      logger.warn({ deadlineMs: STOP_DEADLINE_MS }, 'stopped before finishing: the stop took too long');
      void exitAfterLogs(1);
    }, STOP_DEADLINE_MS).unref();
    let code = 0;
    try {
      await stop();
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      code = 1;
    }
    logger.info({ exitCode: code }, 'stopped');
    await exitAfterLogs(code);
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
