import type { Fetcher } from './api/http.ts';

/** What every page gets from the shell. */
export interface AppContext {
  fetcher: Fetcher;
  /** Mount path of the viewer ("" at the site root). */
  base: string;
  /** Navigate within the viewer; `path` is relative to the base and may carry a query. */
  navigate(path: string, opts?: { replace?: boolean }): void;
}

/** A mounted page. `update` handles history moves that stay on the same page. */
export interface Page {
  update?(path: string, search: string): void;
  unmount(): void;
}
