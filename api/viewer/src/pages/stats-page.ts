import type { Overview, Protection } from '../api/types.ts';
import type { AppContext, Page } from '../app-context.ts';
import { h } from '../dom.ts';
import { formatDuration, formatInt, formatUtc } from '../format.ts';
import { retryAfterMs } from '../load/server-clock.ts';

// Public statistics: overview figures (spec 2.8) and recent protection windows (2.7).

function figures(entries: [string, string][]): HTMLDListElement {
  const dl = h('dl', { class: 'figures' });
  for (const [term, value] of entries) dl.append(h('div', {}, h('dt', {}, term), h('dd', {}, value)));
  return dl;
}

function overviewView(o: Overview): HTMLElement {
  return h(
    'section',
    { 'aria-labelledby': 'overview-title', 'data-section': 'overview' },
    h('h2', { id: 'overview-title' }, 'Overview'),
    figures([
      ['Seeds known', formatInt(o.seedsTracked)],
      ['Maps generated', formatInt(o.seedsDumped)],
      ['Seeds detected', formatInt(o.seedsDetected)],
      ['Detections, last 24 h', formatInt(o.detections?.['24h'])],
      ['Detections, last 7 days', formatInt(o.detections?.['7d'])],
      ['API requests', formatInt(o.requestsTotal)],
      ['Uptime', formatDuration(o.uptimeSec)],
    ]),
  );
}

function protectionView(p: Protection, base: string): HTMLElement {
  const rows = (p.recent ?? []).map((w) => {
    const secs = (Date.parse(w.endedAt) - Date.parse(w.at)) / 1000;
    return h(
      'tr',
      { 'data-seed': w.seed },
      h('th', { scope: 'row' }, h('a', { href: `${base}/seed/${w.seed}` }, String(w.seed))),
      h('td', {}, formatUtc(w.at)),
      h('td', {}, formatUtc(w.endedAt)),
      h('td', {}, Number.isFinite(secs) ? formatDuration(secs) : '–'),
      h('td', { class: 'num' }, formatInt(w.viewAttempts)),
    );
  });
  const table = rows.length
    ? h(
        'div',
        { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-labelledby': 'recent-title' },
        h(
          'table',
          { class: 'recent' },
          h('caption', { id: 'recent-title' }, 'Recently ended block windows, newest first'),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, 'Seed'),
              h('th', { scope: 'col' }, 'Opened'),
              h('th', { scope: 'col' }, 'Ended'),
              h('th', { scope: 'col' }, 'Length'),
              h('th', { scope: 'col', class: 'num' }, 'Views refused'),
            ),
          ),
          h('tbody', {}, ...rows),
        ),
      )
    : h('p', {}, 'No block window has ended yet.');
  return h(
    'section',
    { 'aria-labelledby': 'protection-title', 'data-section': 'protection' },
    h('h2', { id: 'protection-title' }, 'Seed protection'),
    h(
      'p',
      { class: 'lead' },
      'Game servers hide the seed of a running round. Seeds of windows still open are never shown here.',
    ),
    figures([
      ['Seeds ever blocked', formatInt(p.seeds)],
      ['Block windows opened', formatInt(p.windows)],
      ['Map views refused', formatInt(p.viewAttemptsBlocked)],
    ]),
    table,
  );
}

export function mountStatsPage(main: HTMLElement, ctx: AppContext): Page {
  let disposed = false;
  let timer: number | undefined;
  document.title = 'Statistics – seedblock';
  const body = h('div', { class: 'stats' });
  const note = h('p', { class: 'list-status', role: 'status' }, 'Loading statistics…');
  main.append(h('h1', {}, 'Statistics'), note, body);

  async function load(): Promise<void> {
    main.dataset.state = 'loading';
    try {
      const [o, p] = await Promise.all([ctx.fetcher('/stats/overview'), ctx.fetcher('/stats/protection')]);
      if (disposed) return;
      const limited = [o, p].find((a) => a.status === 429);
      if (limited) {
        const ms = retryAfterMs(limited.header('retry-after'), Date.now(), 10_000);
        note.textContent = `Too many requests; trying again in ${Math.ceil(ms / 1000)} s.`;
        main.dataset.state = 'rate-limited';
        timer = window.setTimeout(() => void load(), ms);
        return;
      }
      if (o.status !== 200 || p.status !== 200) throw new Error('stats unavailable');
      body.replaceChildren(overviewView(o.body as Overview), protectionView(p.body as Protection, ctx.base));
      note.textContent = '';
      main.dataset.state = 'ready';
    } catch {
      if (disposed) return;
      note.textContent = 'Statistics are unavailable right now; trying again shortly.';
      main.dataset.state = 'error';
      timer = window.setTimeout(() => void load(), 15_000);
    }
  }
  void load();

  return {
    unmount() {
      disposed = true;
      window.clearTimeout(timer);
    },
  };
}
