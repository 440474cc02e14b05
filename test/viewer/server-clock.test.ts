import { describe, expect, it } from 'vitest';
import {
  formatCountdown,
  remainingMs,
  retryAfterMs,
  serverOffset,
} from '../../viewer/src/load/server-clock.ts';

describe('formatCountdown', () => {
  it('shows hh:mm:ss, rounding up partial seconds', () => {
    expect(formatCountdown(0)).toBe('00:00:00');
    expect(formatCountdown(1)).toBe('00:00:01');
    expect(formatCountdown(999)).toBe('00:00:01');
    expect(formatCountdown(1000)).toBe('00:00:01');
    expect(formatCountdown(59_001)).toBe('00:01:00');
    expect(formatCountdown(3_600_000)).toBe('01:00:00');
    expect(formatCountdown(3_661_000)).toBe('01:01:01');
    expect(formatCountdown(-5000)).toBe('00:00:00');
  });

  it('keeps counting hours past a day', () => {
    expect(formatCountdown(100 * 3600_000)).toBe('100:00:00');
  });
});

describe('server time', () => {
  const local = Date.parse('2025-01-01T12:00:00Z');

  it('takes the offset from the Date header', () => {
    expect(serverOffset('Wed, 01 Jan 2025 17:00:00 GMT', local)).toBe(5 * 3600_000);
    expect(serverOffset('Wed, 01 Jan 2025 11:59:30 GMT', local)).toBe(-30_000);
    expect(serverOffset(null, local)).toBe(0);
    expect(serverOffset('not a date', local)).toBe(0);
  });

  it('adds Age to the Date of an answer kept by a shared cache', () => {
    // Generated at 16:58, served from a cache 120 s later: the server's now is 17:00.
    expect(serverOffset('Wed, 01 Jan 2025 16:58:00 GMT', local, '120')).toBe(5 * 3600_000);
    expect(serverOffset('Wed, 01 Jan 2025 17:00:00 GMT', local, null)).toBe(5 * 3600_000);
    expect(serverOffset('Wed, 01 Jan 2025 17:00:00 GMT', local, 'soon')).toBe(5 * 3600_000);
    expect(serverOffset(null, local, '120')).toBe(0);
  });

  it('counts down to blockedUntil in server time, not local time', () => {
    // The server clock runs 5 hours ahead; the block ends 90 s after the server's now.
    const offset = 5 * 3600_000;
    const until = local + offset + 90_000;
    expect(remainingMs(until, offset, local)).toBe(90_000);
    expect(formatCountdown(remainingMs(until, offset, local + 30_000))).toBe('00:01:00');
    expect(remainingMs(until, offset, local + 120_000)).toBe(0);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('7', local, 10_000)).toBe(7000);
    expect(retryAfterMs('Wed, 01 Jan 2025 12:00:30 GMT', local, 10_000)).toBe(30_000);
    expect(retryAfterMs(null, local, 10_000)).toBe(10_000);
    expect(retryAfterMs('soon', local, 10_000)).toBe(10_000);
  });
});
