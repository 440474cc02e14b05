import type { ManualClock } from '../../store/index.ts';
import { HttpError } from '../http/http-error.ts';
import { ClockMoveSchema, ClockResponseSchema } from '../schemas.ts';
import { error } from './answers.ts';
import { route, type Route } from './route.ts';

// The times every answer can write as ISO-8601 UTC (`YYYY-MM-DDTHH:mm:ss.sssZ`): years 0000-9999.
// Beyond them toISOString writes `+010000-…` or `-000001-…`, which no answer may carry.
const EARLIEST = Date.parse('0000-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * POST /__test__/clock, mounted only with SEEDBLOCK_CLOCK=manual (refused in production), outside
 * the API and its document: `{"set":"<ISO>"}` or `{"advanceMs":N}` moves the clock every process
 * reads; answers `{"now"}`. A move to a time outside years 0000-9999 is refused (400 `invalid
 * request`), clock unchanged. Its body is read and parsed by its pipeline, as a table route's.
 */
export function testClockRoute(clock: ManualClock): Route {
  return route({
    id: 'testClock',
    tag: 'operations',
    method: 'post',
    path: '/__test__/clock',
    outsidePrefix: true,
    summary: 'Moves the manual clock (tests only)',
    body: ClockMoveSchema,
    bodyExample: { advanceMs: 60_000 },
    responses: {
      200: { description: 'Moved', schema: ClockResponseSchema },
      400: error(['invalid request']),
    },
    handler: () => async (ctx) => {
      const move = ctx.body;
      let now: number | null;
      if ('set' in move) {
        const target = Date.parse(move.set);
        now = target >= EARLIEST && target <= LATEST ? await clock.set(target) : null;
      } else {
        now = await clock.advanceWithin(move.advanceMs, EARLIEST, LATEST);
      }
      if (now === null) throw new HttpError(400, 'invalid request');
      ctx.send(200, { now: new Date(now).toISOString() });
    },
  });
}
