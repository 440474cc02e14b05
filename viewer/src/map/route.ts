import type { MapData, Room } from '../../../renderer/map-types.ts';
import type { FindEntry } from './find.ts';
import { floorOf } from '../../../renderer/floors.ts';
import { findLinks, roomKey } from '../../../renderer/links.ts';
import { EXIT } from './route-ends.ts';
import type { Route, RouteEnds } from './route-ends.ts';
import { isPlaceRoom, surfacePlaces } from '../../../renderer/surface-places.ts';

// The shortest way between two rooms over the rooms' connections: doors between neighbouring cells
// (each room's conn), the Heavy–Entrance checkpoints, and the elevators between floors. A walk is
// measured from room centre to room centre; an elevator ride adds time, not metres.

/**
 * Assumed running speed of a human in the game, m/s. The reference facts give none; 5.4 m/s is the
 * game's sprint speed for human classes as players know it.
 */
export const RUN_SPEED = 5.4;
/** Assumed time of one elevator ride, doors included, in seconds. */
export const ELEVATOR_RIDE_S = 10;

export interface RouteEdge {
  to: Room;
  metres: number;
  elevator: boolean;
}

export type RouteGraph = Map<string, { room: Room; edges: RouteEdge[] }>;

/** The ways out `exit` means. */
const EXIT_IDS = ['room:gate-a', 'room:gate-b', 'room:escape'] as const;

const flat = (a: Room, b: Room): number => Math.hypot(a.x - b.x, a.z - b.z);

export function buildRouteGraph(map: Pick<MapData, 'rooms'> & Partial<Pick<MapData, 'doors'>>): RouteGraph {
  const graph: RouteGraph = new Map();
  const rooms = map.rooms.filter((r) => floorOf(r) !== undefined);
  for (const room of rooms) graph.set(roomKey(room), { room, edges: [] });
  const connect = (a: Room, b: Room, elevator: boolean): void => {
    const na = graph.get(roomKey(a));
    const nb = graph.get(roomKey(b));
    if (!na || !nb || na === nb) return;
    const metres = elevator ? 0 : flat(a, b);
    if (!na.edges.some((e) => e.to === nb.room)) na.edges.push({ to: nb.room, metres, elevator });
    if (!nb.edges.some((e) => e.to === na.room)) nb.edges.push({ to: na.room, metres, elevator });
  };
  // Door neighbours on one floor; conn entries to another floor or zone are links, handled below.
  for (const room of rooms) {
    for (const c of room.conn) {
      if ((c.y !== undefined && c.y !== room.y) || (c.zone !== undefined && c.zone !== room.zone)) continue;
      const other = graph.get(roomKey({ x: c.x, y: room.y, z: c.z }))?.room;
      if (other) connect(room, other, false);
    }
  }
  for (const link of findLinks(rooms)) connect(link.a, link.b, link.kind === 'elevator');
  connectSurfacePlaces(map, graph, connect);
  return graph;
}

/**
 * Surface's places: each gate elevator arrives at its place, and on Surface a walk is measured in a
 * straight line between places (its real paths are not in the map data), from the open area too.
 */
function connectSurfacePlaces(
  map: Pick<MapData, 'rooms'> & Partial<Pick<MapData, 'doors'>>,
  graph: RouteGraph,
  connect: (a: Room, b: Room, elevator: boolean) => void,
): void {
  const outside = map.rooms.find((r) => r.name === 'Outside');
  const places = surfacePlaces(map);
  for (const p of places) graph.set(roomKey(p.room), { room: p.room, edges: [] });
  for (const p of places) {
    const from = p.elevatorFrom && map.rooms.find((r) => r.name === p.elevatorFrom);
    if (from) connect(from, p.room, true);
    if (outside) connect(outside, p.room, false);
    for (const q of places) if (q !== p) connect(p.room, q.room, false);
  }
}

const cost = (e: RouteEdge): number => e.metres / RUN_SPEED + (e.elevator ? ELEVATOR_RIDE_S : 0);

/**
 * The quickest route from any of `starts` to any of `ends` (several rooms can share a name: the
 * nearest pair is taken), or undefined when no way joins them.
 */
export function shortestRoute(
  graph: RouteGraph,
  starts: readonly Room[],
  ends: readonly Room[],
): Route | undefined {
  const goal = new Set(ends.map(roomKey));
  const best = new Map<string, number>();
  const prev = new Map<string, { from: string; edge: RouteEdge }>();
  const open = new Set<string>();
  for (const s of starts) {
    const k = roomKey(s);
    if (!graph.has(k)) continue;
    best.set(k, 0);
    open.add(k);
  }
  // A plain scan for the cheapest open room: maps have about 100 rooms.
  while (open.size) {
    let k = '';
    let d = Infinity;
    for (const o of open) {
      const v = best.get(o) ?? Infinity;
      if (v < d) [k, d] = [o, v];
    }
    open.delete(k);
    if (goal.has(k)) return trace(graph, prev, k);
    // The surface is one open area whose paths the map does not hold: a route may start or end
    // there, never cut across it (its length would be unknown). Between its known places it walks
    // straight, but never rides back down: Surface is no shortcut from one gate to the other.
    const node = graph.get(k);
    const surface = node?.room.shape === 'Undefined' && prev.has(k);
    if (surface && !isPlaceRoom(node.room)) continue;
    for (const e of node?.edges ?? []) {
      if (surface && e.elevator) continue;
      const to = roomKey(e.to);
      const next = d + cost(e);
      if (next < (best.get(to) ?? Infinity)) {
        best.set(to, next);
        prev.set(to, { from: k, edge: e });
        open.add(to);
      }
    }
  }
  return undefined;
}

function trace(graph: RouteGraph, prev: Map<string, { from: string; edge: RouteEdge }>, end: string): Route {
  const rooms: Room[] = [];
  let metres = 0;
  let elevators = 0;
  let k: string | undefined = end;
  while (k !== undefined) {
    const node = graph.get(k);
    if (node) rooms.unshift(node.room);
    const step = prev.get(k);
    if (step) {
      metres += step.edge.metres;
      if (step.edge.elevator) elevators++;
    }
    k = step?.from;
  }
  return { rooms, metres, elevators, seconds: metres / RUN_SPEED + elevators * ELEVATOR_RIDE_S };
}

/** Every room a `room:` id names, on any floor; for `exit`, every way out. */
export function roomsOf(index: readonly FindEntry[], id: string): Room[] {
  if (id === EXIT) return EXIT_IDS.flatMap((e) => roomsOf(index, e));
  const entry = index.find((e) => e.id === id && e.kind === 'room');
  return entry ? Object.values(entry.floors).flatMap((t) => t.rooms) : [];
}

/**
 * The quickest route between the rooms two ids name. To `exit` it is the nearest way out; from
 * Surface, already out of the facility, that is the escape (a gate would lead back in).
 */
export function routeBetween(
  graph: RouteGraph,
  index: readonly FindEntry[],
  ends: RouteEnds,
): Route | undefined {
  const from = roomsOf(index, ends.from);
  const onSurface = from.length > 0 && from.every((r) => floorOf(r) === 'surface');
  const to = ends.to === EXIT && onSurface ? roomsOf(index, 'room:escape') : roomsOf(index, ends.to);
  return from.length && to.length ? shortestRoute(graph, from, to) : undefined;
}

/** The way out a route to `exit` ends at, by its Find name ("Gate A", "Escape"). */
export function exitName(index: readonly FindEntry[], route: Route): string | undefined {
  const last = route.rooms[route.rooms.length - 1];
  const key = last && roomKey(last);
  return EXIT_IDS.map((id) => index.find((e) => e.id === id)).find((e) =>
    Object.values(e?.floors ?? {}).some((t) => t.rooms.some((r) => roomKey(r) === key)),
  )?.name;
}

/** "Nearest exit: Gate A, 49 s, 212 m.", then what the estimate assumes. */
export function exitSummary(route: Route, name: string): string {
  const rest = routeSummary(route).replace(/^Route: [^(]*/, '');
  return `Nearest exit: ${name}, ${Math.round(route.seconds)} s, ${Math.round(route.metres)} m ${rest}`;
}

/** "Route: 212 m, about 35 s", then what the estimate assumes. */
export function routeSummary(route: Route): string {
  const n = route.elevators;
  const rides = n
    ? `, plus an assumed ${ELEVATOR_RIDE_S} s for ${n === 1 ? 'its elevator ride' : `each of its ${n} elevator rides`}`
    : '';
  const surface = route.rooms.some(isPlaceRoom)
    ? ' On Surface it goes straight between places, some only approximately placed (≈).'
    : '';
  return `Route: ${Math.round(route.metres)} m, about ${Math.round(route.seconds)} s (running at an assumed ${RUN_SPEED} m/s from room centre to room centre${rides}).${surface}`;
}
