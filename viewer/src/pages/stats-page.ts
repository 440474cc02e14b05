import type { Overview, Protection } from '../api/types.ts';
import type { AppContext, Page } from '../app-context.ts';
import { h } from '../dom.ts';
import { formatDuration, formatInt, formatUtc } from '../format.ts';
import { retryAfterMs } from '../load/server-clock.ts';
import { barChart, timeline } from './charts.ts';
import type { Chart } from './charts.ts';

// Public statistics: overview figures (spec 2.8) and recent protection windows (2.7), as numbers
// and as small charts.

function figures(entries: [string, string][]): HTMLDListElement {
  const dl = h('dl', { class: 'figures' });
  for (const [term, value] of entries) dl.append(h('div', {}, h('dt', {}, term), h('dd', {}, value)));
  return dl;
}

function overviewView(o: Overview, charts: Chart[]): HTMLElement {
  const counts = barChart('seeds', 'Seeds', [
    { label: 'Known', value: o.seedsTracked },
    { label: 'Maps generated', value: o.seedsDumped },
    { label: 'Detected', value: o.seedsDetected },
  ]);
  const detections = barChart('detections', 'Detections', [
    { label: 'Last 24 h', value: o.detections?.['24h'] },
    { label: 'Last 7 days', value: o.detections?.['7d'] },
  ]);
  charts.push(counts, detections);
  return h(
    'section',
    { 'aria-labelledby': 'overview-title', 'data-section': 'overview' },
    h('h2', { id: 'overview-title' }, 'Overview'),
    h('div', { class: 'chart-row' }, counts.el, detections.el),
    figures([
      ['API requests', formatInt(o.requestsTotal)],
      ['Uptime', formatDuration(o.uptimeSec)],
    ]),
  );
}

function protectionView(p: Protection, base: string, charts: Chart[]): HTMLElement {
  const recent = p.recent ?? [];
  const windows = recent.length
    ? timeline('windows', 'Recently ended block windows, newest on top (times in UTC)', recent)
    : undefined;
  if (windows) charts.push(windows);
  const rows = recent.map((w) => {
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
    windows?.el,
    table,
  );
}

export function mountStatsPage(main: HTMLElement, ctx: AppContext): Page {
  let disposed = false;
  let timer: number | undefined;
  let charts: Chart[] = [];
  let width = 0;
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
      charts = [];
      body.replaceChildren(
        overviewView(o.body as Overview, charts),
        protectionView(p.body as Protection, ctx.base, charts),
      );
      for (const c of charts) c.draw();
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
  // Charts are drawn to the pixel width of their box: redraw when it changes.
  const resize = new ResizeObserver(() => {
    if (body.clientWidth === width) return;
    width = body.clientWidth;
    for (const c of charts) c.draw();
  });
  resize.observe(body);

  return {
    unmount() {
      disposed = true;
      resize.disconnect();
      window.clearTimeout(timer);
    },
  };
}
