/**
 * Raw HTTP for the "rules for every call" tests: exact headers and bytes, redirects not followed.
 * Only ever used against the loopback API of a test.
 */
import type { TestApi } from './api.ts';

export interface RawResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text when the answer is not JSON. */
  body: T;
  text: string;
}

export interface RawInit {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON with `Content-Type: application/json` unless a content-type header is given. */
  json?: unknown;
  /** Sent as these exact bytes; no Content-Type is added (give one in `headers` if wanted). */
  raw?: string | Uint8Array;
}

export async function send<T = Record<string, unknown>>(
  url: string,
  init: RawInit = {},
): Promise<RawResponse<T>> {
  const headers: Record<string, string> = { 'user-agent': 'seedblock-tests/1', ...init.headers };
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (init.json !== undefined) {
    body = new Uint8Array(Buffer.from(JSON.stringify(init.json), 'utf8'));
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
  } else if (init.raw !== undefined) {
    // A Uint8Array body makes fetch add no Content-Type of its own (a string would be text/plain).
    body = new Uint8Array(typeof init.raw === 'string' ? Buffer.from(init.raw, 'utf8') : init.raw);
  }
  const response = await fetch(url, {
    method: init.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON; keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export const REPORT_PATHS = ['/plugin/v1/report', '/v1/servers/report'] as const;
export type ReportPath = (typeof REPORT_PATHS)[number];

export const validReport = (extra: Record<string, unknown> = {}) => ({
  event: 'round_start',
  seed: 123456,
  port: 7777,
  ...extra,
});

/** One report with a bearer credential (and any extra headers). */
export function sendReport(
  api: Pick<TestApi, 'base'>,
  credential: string | null,
  body: unknown = validReport(),
  { path = '/plugin/v1/report', headers = {} }: { path?: string; headers?: Record<string, string> } = {},
) {
  return send(`${api.base}${path}`, {
    json: body,
    headers: { ...(credential === null ? {} : { authorization: `Bearer ${credential}` }), ...headers },
  });
}

/** `Retry-After` as whole seconds, or NaN when it is missing or not a plain integer. */
export function retryAfterSeconds(res: { headers: Headers }): number {
  const value = res.headers.get('retry-after');
  return value !== null && /^\d+$/.test(value) ? Number(value) : Number.NaN;
}
