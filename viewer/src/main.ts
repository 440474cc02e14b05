import { makeFetcher } from './api/http.ts';
import type { AppContext, Page } from './app-context.ts';
import { meta } from './dom.ts';
import { mountMapPage } from './pages/map-page.ts';
import { attachSkipLink } from './skip-link.ts';
import { pageOf, stripBase } from './state/routes.ts';
import type { PageId } from './state/routes.ts';

// Single-page app with history routing. The server renders the same shell for /, /seed/:seed,
// /seeds and /stats and puts the API prefix and mount path in <meta> tags.

const base = (meta('viewer-base') ?? '').replace(/\/+$/, '');
const apiPrefix = meta('api-prefix') || '/api';
const main = document.getElementById('main') as HTMLElement;

let current: { id: PageId; page: Page } | undefined;
/** Counts route changes, so a page whose code arrives after the next change is not mounted. */
let routed = 0;

type Mount = typeof mountMapPage;
// The map is what most visits open; the seed list and the statistics (with their charts) load
// their code when first opened, so a first visit downloads less.
const MOUNTS: Record<PageId, () => Promise<Mount>> = {
  home: () => import('./pages/home-page.ts').then((m) => m.mountHomePage),
  map: () => Promise.resolve(mountMapPage),
  seeds: () => import('./pages/seeds-page.ts').then((m) => m.mountSeedsPage),
  stats: () => import('./pages/stats-page.ts').then((m) => m.mountStatsPage),
};

const ctx: AppContext = {
  fetcher: makeFetcher(apiPrefix),
  base,
  navigate(path, opts) {
    const url = base + path;
    if (opts?.replace) history.replaceState(null, '', url);
    else history.pushState(null, '', url);
    route();
  },
};

function route(): void {
  const path = stripBase(location.pathname, base);
  const id = pageOf(path, location.search);
  if (current?.id === id && current.page.update) {
    current.page.update(path, location.search);
    return;
  }
  current?.page.unmount();
  main.replaceChildren();
  main.dataset.page = id;
  main.dataset.state = 'loading';
  for (const a of Array.from(document.querySelectorAll<HTMLAnchorElement>('[data-nav]'))) {
    // "Map" leads to the home page, where a map is opened.
    if (a.dataset.nav === (id === 'home' ? 'map' : id)) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  current = undefined;
  const n = ++routed;
  void MOUNTS[id]().then((mount) => {
    if (n === routed) current = { id, page: mount(main, ctx, path, location.search) };
  });
}

// Same-origin links inside the viewer are handled without a page load.
document.addEventListener('click', (e) => {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = (e.target as Element | null)?.closest?.('a');
  if (!a || a.target || a.hasAttribute('download')) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  const path = stripBase(url.pathname, base);
  if (base && !url.pathname.startsWith(base)) return;
  if (!['/', '/seeds', '/stats'].includes(path) && !path.startsWith('/seed/')) return;
  e.preventDefault();
  const wasPage = current?.id;
  ctx.navigate(path + url.search);
  if (pageOf(path, url.search) !== wasPage) main.focus({ preventScroll: false });
});

attachSkipLink();
window.addEventListener('popstate', route);
route();
