// HTTP calls for the drills: every call bounded in time (a hang is a failure, never a stuck
// test) and stamped with when it was sent and answered, so answers can be placed on a timeline.
// Only ever used against loopback APIs of a test.

export interface TimedResponse<T = Record<string, unknown>> {
  /** 0 when no answer came (network error or the time bound). */
  status: number;
  headers: Headers | null;
  /** Parsed JSON, or the text when the answer is not JSON. */
  body: T;
  /** performance.now() when the request was handed to fetch and when its whole body had arrived. */
  sentAt: number;
  doneAt: number;
  /** Why no answer came (status 0). */
  failure?: string;
}

export interface TimedInit {
  method?: string;
  /** Sent as JSON with `Content-Type: application/json`. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The bound for the whole call, body included. */
  timeoutMs?: number;
}

export async function timedCall<T = Record<string, unknown>>(
  url: string,
  init: TimedInit = {},
): Promise<TimedResponse<T>> {
  const target = new URL(url);
  if (target.hostname !== '127.0.0.1') throw new Error(`drills only talk to 127.0.0.1, not ${url}`);
  const headers: Record<string, string> = { 'user-agent': 'seedblock-drills/1', ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const sentAt = performance.now();
  try {
    const response = await fetch(url, {
      method: init.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(init.timeoutMs ?? 2_000),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON; keep the text
    }
    return {
      status: response.status,
      headers: response.headers,
      body: parsed as T,
      sentAt,
      doneAt: performance.now(),
    };
  } catch (err) {
    const failure = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    return { status: 0, headers: null, body: undefined as T, sentAt, doneAt: performance.now(), failure };
  }
}

/** Resolves with `promise`, or rejects after `ms` (for store calls that must not hang either). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms);
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
