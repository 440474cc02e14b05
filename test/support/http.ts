// The tests' one HTTP client, to loopback only: a JSON body or exact bytes, any headers, redirects
// answered as they are (never followed), an optional bound in time. Every answer has its status,
// headers, text, the text parsed as JSON (or the text itself when it is not JSON), and when it was
// sent and done, so drills can place answers on a timeline. Three ways to ask: `send` (fetch, which
// asks for and decodes compressed answers itself), `timed` (a failure, or no answer within the
// bound, answered as status 0 instead of thrown) and `get` (node:http: the answer's bytes as they
// came on the wire, beside their decoding, with no Accept-Encoding unless the test gives one).
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface HttpInit {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON with `Content-Type: application/json` unless a content-type header is given. */
  json?: unknown;
  /** Sent as these exact bytes; no Content-Type is added (give one in `headers` if wanted). */
  raw?: string | Uint8Array;
  /** The bound for the whole call, body included (none unless given). */
  timeoutMs?: number;
  /** Sent as X-Forwarded-For, which the API believes from loopback (TRUST_PROXY=loopback): one client IP per caller. */
  ip?: string;
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

/** An answer with the bytes that came on the wire (`get`). */
export interface WireAnswer<T = Record<string, unknown>> extends HttpAnswer<T> {
  /** The body as sent: still compressed when Content-Encoding says so. */
  raw: Buffer;
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

/** What a request sends: our user agent, the caller's IP when given, the test's headers and body. */
function prepare(init: HttpInit) {
  const headers: Record<string, string> = {
    'user-agent': 'seedblock-tests/1',
    ...(init.ip === undefined ? {} : { 'x-forwarded-for': init.ip }),
    ...init.headers,
  };
  const body = requestBody(init, headers);
  const method = init.method ?? (body ? 'POST' : 'GET');
  const signal = init.timeoutMs === undefined ? undefined : AbortSignal.timeout(init.timeoutMs);
  return { method, headers, body, signal };
}

/** The text as JSON, or the text itself when it is not JSON. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function send<T = Record<string, unknown>>(
  url: string,
  init: HttpInit = {},
): Promise<HttpAnswer<T>> {
  const sentAt = performance.now();
  const response = await fetch(url, { ...prepare(init), redirect: 'manual' });
  const text = await response.text();
  const { status, headers: answered } = response;
  return { status, headers: answered, body: parsed(text) as T, text, sentAt, doneAt: performance.now() };
}

/**
 * A request over node:http, whose answer keeps its bytes as they came (fetch asks for compression
 * itself and decodes it): `raw`, and the text and body decoded by the answer's Content-Encoding.
 */
export function get<T = Record<string, unknown>>(url: string, init: HttpInit = {}): Promise<WireAnswer<T>> {
  const target = new URL(url);
  if (target.hostname !== '127.0.0.1') throw new Error(`tests only talk to 127.0.0.1, not ${url}`);
  const { body, ...options } = prepare(init);
  const sentAt = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        ...options,
        host: '127.0.0.1',
        port: target.port,
        path: `${target.pathname}${target.search}`,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const answered = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
              answered.append(name, v);
          }
          // A HEAD answer names its coding but has no bytes to decode.
          const coding = raw.length > 0 ? answered.get('content-encoding') : null;
          const decoded =
            coding === 'br' ? brotliDecompressSync(raw) : coding === 'gzip' ? gunzipSync(raw) : raw;
          const text = decoded.toString('utf8');
          const status = res.statusCode ?? 0;
          resolve({
            status,
            headers: answered,
            raw,
            text,
            body: parsed(text) as T,
            sentAt,
            doneAt: performance.now(),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
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
