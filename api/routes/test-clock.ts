import { Router } from 'express';
import type { ManualClock } from '../../store/index.ts';
import { HttpError } from '../http/http-error.ts';
import { readJson } from '../http/json-body.ts';
import { ClockMoveSchema, parseOr400 } from '../schemas.ts';

// The times every answer can write as ISO-8601 UTC (`YYYY-MM-DDTHH:mm:ss.sssZ`): years 0000-9999.
// Beyond them toISOString writes `+010000-…` or `-000001-…`, which no answer may carry.
const EARLIEST = Date.parse('0000-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * POST /__test__/clock, mounted only with SEEDBLOCK_CLOCK=manual (refused in production):
 * `{"set":"<ISO>"}` or `{"advanceMs":N}` moves the clock every process reads; answers `{"now"}`.
 * A move to a time outside years 0000-9999 is refused (400 `invalid request`), clock unchanged.
 */
export function testClockRoutes(clock: ManualClock): Router {
  const router = Router();
  router.post('/__test__/clock', readJson, async (req, res) => {
    const move = parseOr400(ClockMoveSchema, req.body);
    let now: number | null;
    if ('set' in move) {
      const target = Date.parse(move.set);
      now = target >= EARLIEST && target <= LATEST ? await clock.set(target) : null;
    } else {
      now = await clock.advanceWithin(move.advanceMs, EARLIEST, LATEST);
    }
    if (now === null) throw new HttpError(400, 'invalid request');
    res.json({ now: new Date(now).toISOString() });
  });
  return router;
}
