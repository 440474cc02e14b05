/** One answer of the read API, body already parsed (undefined when not JSON). */
export interface ApiAnswer {
  status: number;
  header(name: string): string | null;
  body: unknown;
  /** Local wall-clock time (Date.now) when the headers arrived; pairs with the Date header. */
  localTime: number;
  /** performance.now() when the whole body had arrived, before it was parsed. */
  perfTime: number;
}

/** Path relative to the API prefix, e.g. "/maps/123". Rejects on network failure or abort. */
export type Fetcher = (path: string, signal?: AbortSignal) => Promise<ApiAnswer>;

export function makeFetcher(apiPrefix: string): Fetcher {
  const prefix = apiPrefix.replace(/\/+$/, '');
  return async (path, signal) => {
    const res = await fetch(prefix + path, {
      headers: { Accept: 'application/json' },
      // Map answers are cached by the server where allowed; states like 202/403 must be re-asked.
      cache: 'no-store',
      signal,
    });
    const localTime = Date.now();
    const text = await res.text();
    // The draw-time budget starts once the whole body is here; parsing counts against it.
    const perfTime = performance.now();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, header: (name) => res.headers.get(name), body, localTime, perfTime };
  };
}

/** `error` string of an error body, if any. */
export function errorText(body: unknown): string | undefined {
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const e = (body as { error: unknown }).error;
    return typeof e === 'string' ? e : undefined;
  }
  return undefined;
}
