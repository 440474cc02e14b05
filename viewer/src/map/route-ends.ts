import type { Room } from '../../../renderer/map-types.ts';
import { FIND_ID } from './find-target.ts';
import { floorOf } from '../../../renderer/floors.ts';
import type { FloorId } from '../../../renderer/floors.ts';

// What a link and the drawing need of a route: its ends as the link names them, and its rooms on
// one floor. The routing itself (route.ts) loads only when a route is asked for.

export interface Route {
  rooms: Room[];
  metres: number;
  elevators: number;
  seconds: number;
}

/** The two ends of a route as `room:` ids, the way a link carries them; `to` may be `exit`. */
export interface RouteEnds {
  from: string;
  to: string;
}

/** The route end meaning "the nearest way out": Gate A, Gate B or the escape. */
export const EXIT = 'exit';

/** `from~to`, each a `room:` id (`to` may be `exit`); anything else is no route. */
export function parseRouteEnds(raw: string | null): RouteEnds | undefined {
  const [from, to, ...rest] = (raw ?? '').split('~');
  if (rest.length || !from || !to) return undefined;
  const isRoom = (id: string): boolean => FIND_ID.test(id) && id.startsWith('room:');
  return isRoom(from) && (isRoom(to) || to === EXIT) ? { from, to } : undefined;
}

export const serializeRouteEnds = (r: RouteEnds): string => `${r.from}~${r.to}`;

/** The route's rooms on one floor, as runs of consecutive rooms (a run ends where the route leaves the floor). */
export function routeOnFloor(route: Route, floor: FloorId): Room[][] {
  const runs: Room[][] = [];
  let run: Room[] = [];
  for (const r of route.rooms) {
    if (floorOf(r) === floor) run.push(r);
    else if (run.length) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length) runs.push(run);
  return runs;
}
