import type { AppContext, Page } from '../app-context.ts';
import { h } from '../dom.ts';
import { formatInt } from '../format.ts';
import { backoffDelay, BUSY_RETRY } from '../load/backoff.ts';
import type { SeedPage } from '../api/types.ts';
import { isSeedPage, seedRow } from './seed-row.ts';

// Known seeds, newest first, paged by cursor. An IntersectionObserver loads the next page when the
// end of the list scrolls into view; the "Load more" button does the same for keyboard users.

const PAGE_SIZE = 50;
const LOAD_MORE = 'Load more seeds';

interface SeedsParts {
  total: HTMLElement;
  note: HTMLElement;
  list: HTMLElement;
  sentinel: HTMLElement;
  more: HTMLButtonElement;
}

function seedsParts(main: HTMLElement): SeedsParts {
  document.title = 'Seeds – seedblock';
  // Every line above the list holds its height from the start, and the button below it shows only
  // once a page is in: the list never moves when seeds arrive (layout shift).
  const parts = {
    total: h('p', { class: 'total' }, 'Counting seeds…'),
    note: h('p', { class: 'list-status', role: 'status' }),
    list: h('ol', { class: 'seed-list', 'aria-label': 'Seeds', 'data-loaded': 0 }),
    sentinel: h('div', { class: 'sentinel', 'aria-hidden': 'true' }),
    more: h('button', { type: 'button', class: 'load-more', hidden: true }, LOAD_MORE),
  };
  main.append(
    h('h1', {}, 'Seeds'),
    h(
      'p',
      { class: 'lead' },
      'Known seeds, newest first. Seeds hidden by a running game are left out until its block ends.',
    ),
    parts.total,
    parts.note,
    parts.list,
    parts.sentinel,
    parts.more,
  );
  return parts;
}

/** The list's pages, asked for in turn by cursor; after a failure asked again by itself, later each time. */
function seedPager(main: HTMLElement, ctx: AppContext, p: SeedsParts) {
  const { total, note, list, sentinel, more } = p;
  let cursor: number | null | undefined; // undefined = first page not asked yet, null = end
  let loading = false;
  let loaded = 0;
  let disposed = false;
  /** Failed loads in a row, and the timer of the next try after one. */
  let failures = 0;
  let retry: number | undefined;

  // The page is "ready" once a page arrived; the list also tells whether the end was reached.
  const setState = (s: 'loading' | 'ready' | 'end' | 'error'): void => {
    main.dataset.state = s === 'end' ? 'ready' : s;
    list.dataset.state = s;
  };
  const nearEnd = (): boolean => sentinel.getBoundingClientRect().top < window.innerHeight + 400;

  function showPage(page: SeedPage): void {
    list.append(...page.items.map((i) => seedRow(i, ctx.base)));
    loaded += page.items.length;
    list.dataset.loaded = String(loaded);
    cursor = page.nextCursor ?? null;
    list.dataset.nextCursor = cursor === null ? '' : String(cursor);
    total.textContent = `${formatInt(page.total)} seed${page.total === 1 ? '' : 's'} known.`;
    failures = 0;
    more.textContent = LOAD_MORE;
    if (cursor === null) {
      note.textContent = loaded ? `All ${formatInt(loaded)} seeds shown.` : 'No seeds yet.';
      more.hidden = true;
      setState('end');
    } else {
      note.textContent = `${formatInt(loaded)} seeds shown.`;
      more.hidden = false;
      setState('ready');
    }
  }

  function showFailure(): void {
    // Tried again by itself, sooner at first; the button does it now.
    const delay = backoffDelay(BUSY_RETRY, failures++);
    note.textContent = `The seed list could not be loaded. Trying again in ${Math.ceil(delay / 1000)} s.`;
    more.textContent = 'Try again';
    more.hidden = false;
    retry = window.setTimeout(() => void loadMore(), delay);
    setState('error');
  }

  async function loadMore(): Promise<void> {
    if (loading || cursor === null || disposed) return;
    window.clearTimeout(retry);
    loading = true;
    more.disabled = true;
    setState('loading');
    note.textContent = 'Loading seeds…';
    const q = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (cursor !== undefined) q.set('cursor', String(cursor));
    try {
      const ans = await ctx.fetcher(`/seeds?${q.toString()}`);
      if (disposed) return;
      if (ans.status !== 200 || !isSeedPage(ans.body)) throw new Error(`status ${ans.status}`);
      showPage(ans.body);
    } catch {
      if (disposed) return;
      showFailure();
    } finally {
      loading = false;
      more.disabled = false;
    }
    // A tall screen may still show the end of the list after a page; keep filling it. (The
    // observer only reports changes, so this is measured here.)
    if (!disposed && cursor !== null && list.dataset.state === 'ready' && nearEnd()) void loadMore();
  }

  return {
    loadMore,
    dispose() {
      disposed = true;
      window.clearTimeout(retry);
    },
  };
}

export function mountSeedsPage(main: HTMLElement, ctx: AppContext): Page {
  const parts = seedsParts(main);
  const pager = seedPager(main, ctx, parts);
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((e) => e.isIntersecting)) void pager.loadMore();
    },
    { rootMargin: '400px 0px' },
  );
  observer.observe(parts.sentinel);
  parts.more.addEventListener('click', () => void pager.loadMore());
  void pager.loadMore();

  return {
    unmount() {
      pager.dispose();
      observer.disconnect();
    },
  };
}
