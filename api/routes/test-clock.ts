import { Router } from 'express';
import type { ManualClock } from '../../store/index.ts';
import { requireJson } from '../http/json-body.ts';
import { ClockMoveSchema, parseOr400 } from '../schemas.ts';

/**
 * POST /__test__/clock, mounted only with SEEDBLOCK_CLOCK=manual (refused in production):
 * `{"set":"<ISO>"}` or `{"advanceMs":N}` moves the clock every process reads; answers `{"now"}`.
 */
export function testClockRoutes(clock: ManualClock): Router {
  const router = Router();
  router.post('/__test__/clock', requireJson, async (req, res) => {
    const move = parseOr400(ClockMoveSchema, req.body);
    const now = 'set' in move ? await clock.set(Date.parse(move.set)) : await clock.advance(move.advanceMs);
    res.json({ now: new Date(now).toISOString() });
  });
  return router;
}
