import { errorText } from '../api/http.ts';
import type { ApiAnswer, Fetcher } from '../api/http.ts';
import { parseMap } from '../../../renderer/parse-map.ts';
import type { MapData } from '../../../renderer/map-types.ts';
import type { JobStatus } from '../api/types.ts';
import { BLOCK_END_RETRY, BUSY_RETRY, JOB_POLL, backoffDelay } from './backoff.ts';
import { retryAfterMs, serverOffset } from './server-clock.ts';

// Loads one seed's map and follows the viewer behaviour of spec 4.7: poll the job on 202, count
// down a block in server time on 403, wait Retry-After on 429, back off on 503 and network errors.
// Timers and fetch are injected so the whole flow runs under fake time in unit tests.

/** Why no map came: the queue is full (`map unavailable`), the database is down (`db unavailable`),
 * no answer at all, or another error. */
export type UnavailableReason = 'busy' | 'db' | 'network' | 'error';

export type LoadState =
  | { state: 'loading' }
  | { state: 'generating'; job: JobStatus | 'pending'; ahead: number | undefined; error: string | undefined }
  | {
      state: 'blocked';
      /** Block end in server time (ms since epoch). */
      until: number;
      /** Server minus local clock, ms. */
      offset: number;
      /** True when the end has passed but the server still refuses; retrying shortly. */
      overdue: boolean;
    }
  | { state: 'blocked-permanent' }
  | { state: 'rate-limited'; retryAt: number }
  | { state: 'unavailable'; retryAt: number; reason: UnavailableReason }
  | { state: 'invalid'; message: string }
  | { state: 'ready'; map: MapData; perfTime: number };

export interface LoaderDeps {
  fetch: Fetcher;
  /** Local wall clock (Date.now). */
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

/**
 * While counting down a block, re-read the server clock this often, so a jump of the server's clock
 * (a manual test clock, a corrected host clock) moves the countdown and the reload with it.
 */
export const BLOCK_RESYNC_MS = 10_000;
/**
 * Where the server clock is read during a countdown: an answer that is never blocked and never
 * counted as a refused view. Every /maps and /jobs answer about a blocked seed counts in the public
 * `viewAttemptsBlocked` statistic, so those are asked only once the block's end has passed.
 */
export const CLOCK_PATH = '/plugin/v1/version';
const RATE_LIMIT_FALLBACK_MS = 10_000;
const DATE_RESOLUTION_MS = 1000;

export interface MapLoad {
  cancel(): void;
}

type JobAnswer = { status?: unknown; ahead?: unknown; error?: unknown };

/** What a job's answer says as a load state; undefined when the map is ready. */
function jobState(job: JobAnswer | undefined): LoadState | undefined {
  const status = job?.status;
  if (status === 'ready') return undefined;
  if (status === 'error')
    return {
      state: 'generating',
      job: 'error',
      ahead: undefined,
      error: errorText(job) ?? 'generation failed',
    };
  return {
    state: 'generating',
    job: status === 'running' ? 'running' : 'queued',
    ahead: typeof job?.ahead === 'number' ? job.ahead : undefined,
    error: undefined,
  };
}

/** One load's run: its state reports, its one timer and its requests, all ended by `cancel`. */
interface Run {
  readonly deps: LoaderDeps;
  cancelled(): boolean;
  emit(s: LoadState): void;
  /** Runs `fn` after `ms`, in place of anything scheduled before. */
  schedule(fn: () => void, ms: number): void;
  /** The API's answer to a GET of `path`; undefined when none came (network error, cancelled). */
  ask(path: string): Promise<ApiAnswer | undefined>;
  cancel(): void;
}

function startRun(deps: LoaderDeps, onState: (s: LoadState) => void): Run {
  let cancelled = false;
  let timer: unknown;
  const abort = new AbortController();
  return {
    deps,
    cancelled: () => cancelled,
    emit(s) {
      if (!cancelled) onState(s);
    },
    schedule(fn, ms) {
      if (cancelled) return;
      if (timer !== undefined) deps.clearTimer(timer);
      timer = deps.setTimer(
        () => {
          timer = undefined;
          if (!cancelled) fn();
        },
        Math.max(0, ms),
      );
    },
    async ask(path) {
      try {
        return await deps.fetch(path, abort.signal);
      } catch {
        return undefined;
      }
    },
    cancel() {
      cancelled = true;
      if (timer !== undefined) deps.clearTimer(timer);
      abort.abort();
    },
  };
}

/**
 * The countdown of a block (403 with an end time) in server time, and the map asked again
 * (`refetch`, with `atEnd`) once it is over. Returns what handles a 403.
 */
function blockCountdown(
  run: Run,
  refetch: (atEnd: boolean) => void,
): (ans: ApiAnswer, atEnd?: boolean) => void {
  let endAttempt = 0;

  // Waits in server time. `offset` is a lower bound of the true offset (the Date header is cut to
  // whole seconds and stamped before the answer arrives), so once `until` has passed by it, it has
  // passed on the server too: then, and only then, the map is asked again.
  const waitForBlockEnd = (until: number, offset: number): void => {
    const left = until - (run.deps.now() + offset);
    if (left <= 0) return refetch(true);
    if (left <= BLOCK_RESYNC_MS) run.schedule(() => refetch(true), left + 50);
    else run.schedule(() => void resyncClock(until, offset), BLOCK_RESYNC_MS);
  };

  const resyncClock = async (until: number, offset: number): Promise<void> => {
    const ans = await run.ask(CLOCK_PATH);
    if (run.cancelled()) return;
    const date = ans?.header('date');
    let next = offset;
    if (ans && date && Number.isFinite(Date.parse(date))) {
      const sample = serverOffset(date, ans.localTime, ans.header('age'));
      // Samples of a steady clock differ by under a second (the Date resolution); keep the highest,
      // the tightest lower bound. A bigger change is the server clock jumping: follow it.
      next = Math.abs(sample - offset) < DATE_RESOLUTION_MS ? Math.max(offset, sample) : sample;
    }
    if (Math.abs(next - offset) >= DATE_RESOLUTION_MS)
      run.emit({ state: 'blocked', until, offset: next, overdue: false });
    waitForBlockEnd(until, next);
  };

  /** `atEnd`: this answer is the retry made when the countdown reached the end. */
  return (ans, atEnd = false) => {
    const raw = (ans.body as { blockedUntil?: unknown } | undefined)?.blockedUntil;
    const until = typeof raw === 'string' ? Date.parse(raw) : NaN;
    if (!Number.isFinite(until)) {
      // No end time: a permanent blocklist entry. Never retried.
      run.emit({ state: 'blocked-permanent' });
      return;
    }
    const offset = serverOffset(ans.header('date'), ans.localTime);
    const left = until - (ans.localTime + offset);
    // The Date header has whole seconds, so right at the end a refusal with under a second left
    // means the server is at (or past) its end time: back off instead of re-counting.
    if (left > (atEnd ? DATE_RESOLUTION_MS : 0)) {
      endAttempt = 0;
      run.emit({ state: 'blocked', until, offset, overdue: false });
      waitForBlockEnd(until, offset);
    } else {
      const delay = backoffDelay(BLOCK_END_RETRY, endAttempt++);
      run.emit({ state: 'blocked', until, offset, overdue: true });
      run.schedule(() => refetch(true), delay);
    }
  };
}

export function loadMap(seed: number, deps: LoaderDeps, onState: (s: LoadState) => void): MapLoad {
  const run = startRun(deps, onState);
  const { emit, schedule } = run;
  let busyAttempt = 0;
  const handleBlocked = blockCountdown(run, (atEnd) => void fetchMap(atEnd));

  function retryBusy(reason: UnavailableReason): void {
    const delay = backoffDelay(BUSY_RETRY, busyAttempt++);
    emit({ state: 'unavailable', retryAt: deps.now() + delay, reason });
    schedule(() => void fetchMap(), delay);
  }

  async function pollJob(attempt: number): Promise<void> {
    const ans = await run.ask(`/jobs/${seed}`);
    if (run.cancelled()) return;
    const again = (): void => schedule(() => void pollJob(attempt + 1), backoffDelay(JOB_POLL, attempt));
    if (!ans) return again();
    if (ans.status === 403) return handleBlocked(ans);
    if (ans.status === 400) return emit({ state: 'invalid', message: errorText(ans.body) ?? 'invalid seed' });
    if (ans.status !== 200) return again();
    const state = jobState(ans.body as JobAnswer | undefined);
    if (!state) return void fetchMap();
    emit(state);
    if (state.state === 'generating' && state.job === 'error')
      return schedule(() => void fetchMap(), backoffDelay(JOB_POLL, attempt));
    again();
  }

  async function fetchMap(atEnd = false): Promise<void> {
    const ans = await run.ask(`/maps/${seed}`);
    if (run.cancelled()) return;
    if (!ans) return retryBusy('network');
    switch (ans.status) {
      case 200: {
        let map: MapData;
        try {
          map = parseMap(ans.body);
        } catch {
          return retryBusy('error');
        }
        busyAttempt = 0;
        return emit({ state: 'ready', map, perfTime: ans.perfTime });
      }
      case 202:
        busyAttempt = 0;
        emit({ state: 'generating', job: 'pending', ahead: undefined, error: undefined });
        return void pollJob(0);
      case 400:
        return emit({ state: 'invalid', message: errorText(ans.body) ?? 'invalid seed' });
      case 403:
        return handleBlocked(ans, atEnd);
      case 429: {
        const serverNow = ans.localTime + serverOffset(ans.header('date'), ans.localTime);
        const delay = retryAfterMs(ans.header('retry-after'), serverNow, RATE_LIMIT_FALLBACK_MS);
        emit({ state: 'rate-limited', retryAt: deps.now() + delay });
        return schedule(() => void fetchMap(), delay);
      }
      default:
        return retryBusy(
          ans.status !== 503 ? 'error' : errorText(ans.body) === 'db unavailable' ? 'db' : 'busy',
        );
    }
  }

  emit({ state: 'loading' });
  void fetchMap();
  return { cancel: run.cancel };
}
