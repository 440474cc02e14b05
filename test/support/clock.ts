import { send } from './http.ts';
import type { TestApi } from './api.ts';

/** Moves the manual clock of a test API; returns the new time in ms. */
export async function setClock(api: TestApi, iso: string): Promise<number> {
  const res = await send<{ now: string }>(`${api.url}/__test__/clock`, { json: { set: iso } });
  return Date.parse(res.body.now);
}

export async function advanceClock(api: TestApi, ms: number): Promise<number> {
  const res = await send<{ now: string }>(`${api.url}/__test__/clock`, { json: { advanceMs: ms } });
  return Date.parse(res.body.now);
}

/** The tests' one clock vocabulary, in ms. */
export const SECOND = 1_000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves with `promise`, or rejects after `ms` (for store calls that must not hang either). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms);
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

/** Calls `read` until `done` holds for its result (or throws after `timeoutMs`). */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 10_000, everyMs = 25, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`${what} not reached in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await sleep(everyMs);
  }
}
