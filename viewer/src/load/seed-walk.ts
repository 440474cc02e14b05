import type { Fetcher } from '../api/http.ts';
import type { SeedPage } from '../api/types.ts';

// Moving between seeds in the order of the seed list (GET /seeds, newest dump first). The list
// pages forward only, by the last seed of a page, so "next" (one older) is a single request, while
// "previous" (one newer) reads the list from its start until it meets the current seed.

const SCAN_PAGE = 500;
/** Previous gives up after this many pages (25 000 seeds) rather than read a huge list. */
const SCAN_PAGES = 50;

export type WalkResult = { seed: number } | { none: 'first' | 'last' | 'empty' | 'far' };

async function page(fetch: Fetcher, limit: number, cursor?: number): Promise<SeedPage | 'not listed'> {
  const q = new URLSearchParams({ limit: String(limit) });
  if (cursor !== undefined) q.set('cursor', String(cursor));
  const ans = await fetch(`/seeds?${q.toString()}`);
  // 400 `invalid cursor`: the seed is not in the list (never generated, or hidden by a block).
  if (ans.status === 400 && cursor !== undefined) return 'not listed';
  const body = ans.body as SeedPage | undefined;
  if (ans.status !== 200 || !Array.isArray(body?.items)) throw new Error(`seed list: status ${ans.status}`);
  return body;
}

async function newest(fetch: Fetcher): Promise<WalkResult> {
  const first = await page(fetch, 1);
  const item = first === 'not listed' ? undefined : first.items[0];
  return item ? { seed: item.seed } : { none: 'empty' };
}

/** The seed listed after `current` (one older); the newest when `current` is not listed. */
export async function nextSeed(fetch: Fetcher, current: number | undefined): Promise<WalkResult> {
  if (current === undefined) return newest(fetch);
  const after = await page(fetch, 1, current);
  if (after === 'not listed') return newest(fetch);
  const item = after.items[0];
  return item ? { seed: item.seed } : { none: 'last' };
}

/** The seed listed before `current` (one newer); the newest when `current` is not listed. */
export async function previousSeed(fetch: Fetcher, current: number | undefined): Promise<WalkResult> {
  if (current === undefined) return newest(fetch);
  let before: number | undefined;
  let cursor: number | undefined;
  for (let n = 0; n < SCAN_PAGES; n++) {
    const p = await page(fetch, SCAN_PAGE, cursor);
    if (p === 'not listed') break;
    for (const item of p.items) {
      if (item.seed === current) return before === undefined ? { none: 'first' } : { seed: before };
      before = item.seed;
    }
    if (p.nextCursor === null) return n === 0 && !p.items.length ? { none: 'empty' } : newest(fetch);
    cursor = p.nextCursor;
  }
  return { none: 'far' };
}

/** A seed picked at random among the newest listed ones (their maps are ready), not `current`. */
export async function randomSeed(
  fetch: Fetcher,
  current: number | undefined,
  random: () => number = Math.random,
): Promise<WalkResult> {
  const p = await page(fetch, SCAN_PAGE);
  const pool = p === 'not listed' ? [] : p.items.map((i) => i.seed).filter((s) => s !== current);
  const seed = pool[Math.floor(random() * pool.length)];
  return seed === undefined ? { none: 'empty' } : { seed };
}
