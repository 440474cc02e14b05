// The service may run on a manual test clock, so block countdowns are computed in server time:
// offset = server time (from the Date header) − local time when the answer arrived.

/**
 * Server-minus-local offset in ms; 0 when the Date header is missing or unreadable. An answer kept
 * by a shared cache carries the Date of its origin and its time spent in the cache as `Age`
 * (seconds), so the server's now is Date + Age.
 */
export function serverOffset(
  dateHeader: string | null | undefined,
  localNow: number,
  ageHeader?: string | null,
): number {
  if (!dateHeader) return 0;
  const server = Date.parse(dateHeader);
  if (!Number.isFinite(server)) return 0;
  const age = ageHeader && /^\d+$/.test(ageHeader.trim()) ? Number(ageHeader.trim()) * 1000 : 0;
  return server + age - localNow;
}

/** Milliseconds left until `untilServerMs`, as seen from local time `localNow` (never negative). */
export function remainingMs(untilServerMs: number, offsetMs: number, localNow: number): number {
  return Math.max(0, untilServerMs - (localNow + offsetMs));
}

/** Countdown text hh:mm:ss, rounding up so 00:00:00 shows only once the time is reached. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}`;
}

/**
 * Retry-After in ms: either delay-seconds or an HTTP date (read against the server clock).
 * Falls back to `fallbackMs` when absent or malformed.
 */
export function retryAfterMs(
  header: string | null | undefined,
  serverNow: number,
  fallbackMs: number,
): number {
  if (!header) return fallbackMs;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - serverNow) : fallbackMs;
}
