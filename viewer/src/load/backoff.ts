/** Growing retry delays: start, start·factor, … capped at max. `attempt` counts from 0. */
export interface Backoff {
  startMs: number;
  factor: number;
  maxMs: number;
}

export function backoffDelay(b: Backoff, attempt: number): number {
  return Math.round(Math.min(b.maxMs, b.startMs * Math.pow(b.factor, Math.max(0, attempt))));
}

/** Job polling while a map is generated ("seconds to a minute"). */
export const JOB_POLL: Backoff = { startMs: 1000, factor: 1.5, maxMs: 10_000 };
/** 503 busy and network failures. */
export const BUSY_RETRY: Backoff = { startMs: 2000, factor: 2, maxMs: 60_000 };
/** Server still says blocked although its own end time has passed. */
export const BLOCK_END_RETRY: Backoff = { startMs: 2000, factor: 1.5, maxMs: 5000 };
