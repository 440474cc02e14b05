import { call } from './http.ts';
import type { TestApi } from './api.ts';

/** Moves the manual clock of a test API; returns the new time in ms. */
export async function setClock(api: TestApi, iso: string): Promise<number> {
  const res = await call<{ now: string }>(`${api.url}/__test__/clock`, { body: { set: iso } });
  return Date.parse(res.body.now);
}

export async function advanceClock(api: TestApi, ms: number): Promise<number> {
  const res = await call<{ now: string }>(`${api.url}/__test__/clock`, { body: { advanceMs: ms } });
  return Date.parse(res.body.now);
}

/** The tests' one clock vocabulary, in ms. */
export const SECOND = 1_000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
