// The tests' one HTTP client: fetch, to loopback only, with a JSON body or exact bytes, any
// headers, redirects answered as they are (never followed), and an optional bound in time. Every
// answer has its status, headers, text, the text parsed as JSON (or the text itself when it is not
// JSON), and when it was sent and done, so drills can place answers on a timeline. `timed` answers
// a failure (no answer, or none within the bound) as status 0 instead of throwing. A GET that must
// keep compressed bytes as they came goes through read-api.ts `get` (node:http: fetch decodes).

export interface HttpInit {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON with `Content-Type: application/json` unless a content-type header is given. */
  json?: unknown;
  /** Sent as these exact bytes; no Content-Type is added (give one in `headers` if wanted). */
  raw?: string | Uint8Array;
  /** The bound for the whole call, body included (none unless given). */
  timeoutMs?: number;
}

export interface HttpAnswer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text when the answer is not JSON. */
  body: T;
  text: string;
  /** performance.now() when the request was handed to fetch and when its whole body had arrived. */
  sentAt: number;
  doneAt: number;
}

/** An answer, or status 0 (no headers, no body) with why none came. */
export interface TimedAnswer<T = Record<string, unknown>> extends Omit<HttpAnswer<T>, 'headers'> {
  headers: Headers | null;
  /** Why no answer came (status 0). */
  failure?: string;
}

function requestBody(init: HttpInit, headers: Record<string, string>): Uint8Array<ArrayBuffer> | undefined {
  if (init.json !== undefined) {
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    return new Uint8Array(Buffer.from(JSON.stringify(init.json), 'utf8'));
  }
  // A Uint8Array body makes fetch add no Content-Type of its own (a string would be text/plain).
  if (init.raw !== undefined) {
    return new Uint8Array(typeof init.raw === 'string' ? Buffer.from(init.raw, 'utf8') : init.raw);
  }
  return undefined;
}

export async function send<T = Record<string, unknown>>(
  url: string,
  init: HttpInit = {},
): Promise<HttpAnswer<T>> {
  const headers: Record<string, string> = { 'user-agent': 'seedblock-tests/1', ...init.headers };
  const body = requestBody(init, headers);
  const sentAt = performance.now();
  const response = await fetch(url, {
    method: init.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    redirect: 'manual',
    signal: init.timeoutMs === undefined ? undefined : AbortSignal.timeout(init.timeoutMs),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON; keep the text
  }
  const { status, headers: answered } = response;
  return { status, headers: answered, body: parsed as T, text, sentAt, doneAt: performance.now() };
}

/** `send` bounded in time (2 s unless given), a failure answered as status 0. */
export async function timed<T = Record<string, unknown>>(
  url: string,
  init: HttpInit = {},
): Promise<TimedAnswer<T>> {
  const sentAt = performance.now();
  try {
    return await send<T>(url, { timeoutMs: 2_000, ...init });
  } catch (err) {
    const failure = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    return {
      status: 0,
      headers: null,
      body: undefined as T,
      text: '',
      sentAt,
      doneAt: performance.now(),
      failure,
    };
  }
}

export const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });
