import type { ServerResponse } from 'node:http';
import type { ManualClock } from '../../store/index.ts';

/**
 * With the manual clock, answers carry its time in `Date`, so a client that counts down to
 * `blockedUntil` (the viewer) measures against the server's clock, as it does in production.
 */
export function clockDate(clock: ManualClock) {
  return async (res: ServerResponse): Promise<void> => {
    try {
      res.setHeader('Date', new Date(await clock.now()).toUTCString());
    } catch {
      // Redis unreachable: keep the real Date and let the route answer (the version path must).
    }
  };
}
