export type PageId = 'home' | 'map' | 'seeds' | 'stats';

/** Path inside the viewer: "/seeds" for "/viewer/seeds" with base "/viewer". Always starts with "/". */
export function stripBase(pathname: string, base: string): string {
  const rest = base && pathname.startsWith(base) ? pathname.slice(base.length) : pathname;
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** The page of a path and query: the home page is / without a seed, every other path a map. */
export function pageOf(path: string, search = ''): PageId {
  const p = path.replace(/\/+$/, '') || '/';
  if (p === '/seeds') return 'seeds';
  if (p === '/stats') return 'stats';
  if (p === '/' && !new URLSearchParams(search).get('seed')) return 'home';
  return 'map';
}
