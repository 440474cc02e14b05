export type PageId = 'map' | 'seeds' | 'stats';

/** Path inside the viewer: "/seeds" for "/viewer/seeds" with base "/viewer". Always starts with "/". */
export function stripBase(pathname: string, base: string): string {
  const rest = base && pathname.startsWith(base) ? pathname.slice(base.length) : pathname;
  return rest.startsWith('/') ? rest : `/${rest}`;
}

export function pageOf(path: string): PageId {
  const p = path.replace(/\/+$/, '') || '/';
  if (p === '/seeds') return 'seeds';
  if (p === '/stats') return 'stats';
  return 'map';
}
