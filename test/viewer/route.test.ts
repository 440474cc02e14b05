import { describe, expect, it } from 'vitest';
import { generateMap } from '../../generator/facility.ts';
import { parseMap } from '../../renderer/parse-map.ts';
import type { MapData, Room } from '../../renderer/map-types.ts';
import { buildFindIndex } from '../../viewer/src/map/find.ts';
import { roomKey } from '../../renderer/links.ts';
import {
  buildRouteGraph,
  ELEVATOR_RIDE_S,
  exitName,
  exitSummary,
  routeBetween,
  roomsOf,
  routeSummary,
  RUN_SPEED,
  shortestRoute,
} from '../../viewer/src/map/route.ts';
import type { RouteGraph } from '../../viewer/src/map/route.ts';
import { EXIT, parseRouteEnds, routeOnFloor } from '../../viewer/src/map/route-ends.ts';
import { isPlaceRoom, surfacePlaces } from '../../renderer/surface-places.ts';
import { referenceMap } from './fixture.ts';

const generated = parseMap(generateMap(224593721));

/** Quickest time between every pair of rooms, by Floyd-Warshall: a second way to the same answer. */
function allPairs(graph: RouteGraph): (a: Room, b: Room) => number {
  const keys = [...graph.keys()];
  const at = new Map(keys.map((k, i) => [k, i]));
  const n = keys.length;
  const d = Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => (i === j ? 0 : Infinity)),
  );
  for (const [k, node] of graph) {
    for (const e of node.edges) {
      const cost = e.metres / RUN_SPEED + (e.elevator ? ELEVATOR_RIDE_S : 0);
      const i = at.get(k)!;
      const j = at.get(roomKey(e.to))!;
      d[i]![j] = Math.min(d[i]![j]!, cost);
    }
  }
  // Never through the surface's open area (route.ts says why).
  const open = keys.map((k) => graph.get(k)!.room.shape === 'Undefined');
  for (let m = 0; m < n; m++)
    if (!open[m])
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) if (d[i]![m]! + d[m]![j]! < d[i]![j]!) d[i]![j] = d[i]![m]! + d[m]![j]!;
  return (a, b) => d[at.get(roomKey(a))!]![at.get(roomKey(b))!]!;
}

const named = (map: MapData, name: string): Room[] => map.rooms.filter((r) => r.name === name);

describe('route graph', () => {
  for (const [what, map] of [
    ['a generated map (links in conn)', generated],
    ['the dump (door neighbours only in conn)', referenceMap],
  ] as const) {
    it(`joins every room of ${what} but the Pocket Dimension, and Surface's places`, () => {
      const graph = buildRouteGraph(map);
      const places = surfacePlaces(map);
      expect(places.map((p) => p.id)).toEqual([
        'room:surface-gate',
        'room:gate-a-surface',
        'room:gate-b-surface',
        'room:escape',
      ]);
      expect(graph.size).toBe(map.rooms.length - 1 + places.length);
      const start = named(map, 'LczClassDSpawn');
      for (const node of graph.values())
        expect(shortestRoute(graph, start, [node.room]), node.room.name).toBeDefined();
      // Door neighbours are one 15 m cell apart; elevators count no metres; Surface walks are straight.
      for (const node of graph.values())
        for (const e of node.edges) {
          const surface = node.room.zone === 'Surface' || e.to.zone === 'Surface';
          const straight = Math.hypot(node.room.x - e.to.x, node.room.z - e.to.z);
          expect(e.metres).toBeCloseTo(e.elevator ? 0 : surface ? straight : 15, 5);
        }
    });
  }
});

describe('shortest route', () => {
  const graph = buildRouteGraph(generated);
  const quickest = allPairs(graph);

  it('takes the quickest way between any two rooms, as Floyd-Warshall finds it', () => {
    // Surface's places are reached from Surface only (their own test below).
    const rooms = [...graph.values()].map((n) => n.room).filter((r) => !isPlaceRoom(r));
    for (let i = 0; i < rooms.length; i += 7) {
      for (let j = 3; j < rooms.length; j += 11) {
        const [a, b] = [rooms[i]!, rooms[j]!];
        const r = shortestRoute(graph, [a], [b])!;
        expect(r.seconds).toBeCloseTo(quickest(a, b), 6);
        expect(r.rooms[0]).toBe(a);
        expect(r.rooms.at(-1)).toBe(b);
        // Each step is an edge of the graph.
        for (let k = 1; k < r.rooms.length; k++) {
          const edges = graph.get(roomKey(r.rooms[k - 1]!))!.edges;
          expect(edges.some((e) => e.to === r.rooms[k])).toBe(true);
        }
      }
    }
  });

  it('crosses floors by elevator and checkpoint: SCP-914 to Gate A', () => {
    const r = shortestRoute(graph, named(generated, 'Lcz914'), named(generated, 'EzGateA'))!;
    expect(r.elevators).toBe(1);
    expect(r.rooms.map((x) => x.zone)).toContain('Entrance');
    expect(routeOnFloor(r, 'lcz')[0]?.[0]?.name).toBe('Lcz914');
    expect(routeOnFloor(r, 'hcz').flat().at(-1)?.name).toBe('EzGateA');
    expect(routeOnFloor(r, 'surface')).toEqual([]);
    expect(r.seconds).toBeCloseTo(r.metres / RUN_SPEED + ELEVATOR_RIDE_S, 6);
  });

  it('starts or ends on the surface but never cuts across it, whose paths the map does not hold', () => {
    // Two gates 20 cells apart: two elevator rides (20 s) would beat the 300 m walk (56 s).
    const room = (name: string, x: number, conn: number[]): Room => ({
      name,
      zone: 'Entrance',
      shape: 'Straight',
      x,
      y: -100,
      z: 0,
      rotY: 90,
      variant: null,
      conn: conn.map((cx) => ({ x: cx, z: 0 })),
    });
    const line = Array.from({ length: 21 }, (_, i) =>
      room(
        i === 0 ? 'EzGateA' : i === 20 ? 'EzGateB' : 'Unnamed',
        i * 15,
        [i - 1, i + 1].filter((c) => c >= 0 && c <= 20).map((c) => c * 15),
      ),
    );
    const outside: Room = { ...room('Outside', 0, []), zone: 'Surface', shape: 'Undefined', y: 300 };
    const far = buildRouteGraph({ rooms: [...line, outside] });
    const r = shortestRoute(far, [line[0]!], [line[20]!])!;
    expect(r.rooms.map((x) => x.name)).not.toContain('Outside');
    expect(r.metres).toBe(300);
    const up = shortestRoute(graph, named(generated, 'Lcz914'), named(generated, 'Outside'))!;
    expect(up.rooms.at(-1)?.name).toBe('Outside');
    expect(up.elevators).toBe(2);
  });

  it('takes the nearest pair where a name matches several rooms', () => {
    const index = buildFindIndex(generated);
    const airlocks = roomsOf(index, 'room:airlock');
    expect(airlocks.length).toBe(2);
    const start = roomsOf(index, 'room:class-d-cells');
    const r = shortestRoute(graph, start, airlocks)!;
    expect(r.seconds).toBeCloseTo(Math.min(...airlocks.map((a) => quickest(start[0]!, a))), 6);
  });

  it('says "Route: 212 m, about 35 s" and what it assumes', () => {
    const r = { rooms: [], metres: 211.6, elevators: 1, seconds: 211.6 / RUN_SPEED + ELEVATOR_RIDE_S };
    expect(routeSummary(r)).toBe(
      `Route: 212 m, about 49 s (running at an assumed 5.4 m/s from room centre to room centre, plus an assumed 10 s for its elevator ride).`,
    );
  });
});

describe('route links', () => {
  it('reads from~to of two room ids and nothing else', () => {
    expect(parseRouteEnds('room:scp-914~room:gate-a')).toEqual({ from: 'room:scp-914', to: 'room:gate-a' });
    expect(parseRouteEnds('room:scp-914')).toBeUndefined();
    expect(parseRouteEnds('item:MicroHID~room:gate-a')).toBeUndefined();
    expect(parseRouteEnds('room:a~room:b~room:c')).toBeUndefined();
    expect(parseRouteEnds(null)).toBeUndefined();
    expect(parseRouteEnds('room:scp-914~exit')).toEqual({ from: 'room:scp-914', to: 'exit' });
    expect(parseRouteEnds('exit~room:scp-914')).toBeUndefined();
  });
});

describe('nearest exit', () => {
  for (const [what, map] of [
    ['a generated map', generated],
    ['the dump', referenceMap],
  ] as const) {
    it(`takes the quickest of Gate A, Gate B and the escape on ${what}, and names it`, () => {
      const graph = buildRouteGraph(map);
      const index = buildFindIndex(map);
      for (const from of ['room:class-d-cells', 'room:scp-079', 'room:scp-914']) {
        const r = routeBetween(graph, index, { from, to: EXIT })!;
        const each = ['room:gate-a', 'room:gate-b', 'room:escape'].map((to) => ({
          to,
          r: routeBetween(graph, index, { from, to })!,
        }));
        const best = each.reduce((a, b) => (b.r.seconds < a.r.seconds ? b : a));
        expect(r.seconds).toBeCloseTo(best.r.seconds, 6);
        const name = exitName(index, r)!;
        expect(name).toBe(index.find((e) => e.id === best.to)?.name);
        expect(exitSummary(r, name)).toMatch(
          new RegExp(`^Nearest exit: ${name}, ${Math.round(r.seconds)} s, ${Math.round(r.metres)} m `),
        );
      }
    });
  }

  it('goes to the escape from Surface, walking straight between its places, never down and up', () => {
    const graph = buildRouteGraph(referenceMap);
    const index = buildFindIndex(referenceMap);
    const r = routeBetween(graph, index, { from: 'room:gate-b-surface', to: EXIT })!;
    expect(exitName(index, r)).toBe('Escape');
    expect(r.elevators).toBe(0);
    const [a, b] = r.rooms;
    expect(r.metres).toBeCloseTo(Math.hypot(a!.x - b!.x, a!.z - b!.z), 6);
    expect(routeSummary(r)).toContain('approximately placed (≈)');
    // From Class-D the escape is reached by a gate's elevator and a walk on Surface.
    const escape = routeBetween(graph, index, { from: 'room:class-d-cells', to: 'room:escape' })!;
    expect(escape.rooms.at(-1)?.name).toBe('Surface:room:escape');
    expect(routeOnFloor(escape, 'surface').flat().length).toBe(2);
  });
});
