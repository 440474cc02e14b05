import { slug } from '../map/find.ts';
import type { FindEntry } from '../map/find.ts';
import { knownRoomLabels } from '../../../renderer/labels.ts';
import type { MapData } from '../../../renderer/map-types.ts';
import { buildRouteGraph, exitName, exitSummary, roomsOf, routeBetween, routeSummary } from '../map/route.ts';
import type { RouteGraph } from '../map/route.ts';
import { EXIT } from '../map/route-ends.ts';
import { NO_ROUTE } from './map-store.ts';
import type { MapModel, RouteView } from './map-store.ts';

// The route the state names, and what the route panel says of it. Loaded (with the routing) only
// when a route is asked for: most visits never route.

/** Each map's route graph, built with the first route on it. */
const graphs = new WeakMap<MapData, RouteGraph>();

/** A find id's player name: from this map, else from the rooms players know ("room:cafeteria"). */
export function nameOfId(index: readonly FindEntry[], id: string): string {
  if (id === EXIT) return 'the nearest exit';
  const entry = index.find((e) => e.id === id);
  if (entry) return entry.name;
  const known = knownRoomLabels().find((l) => `room:${slug(l.full)}` === id);
  return known?.full ?? id.replace(/^[a-z]+:/, '').replace(/-/g, ' ');
}

export function routeView(m: Readonly<MapModel>): RouteView {
  const { map, findIndex, pendingEnds } = m;
  const ends = m.state.route;
  const name = (id: string): string => nameOfId(findIndex, id);
  if (!map) return NO_ROUTE;
  if (ends) {
    const from = roomsOf(findIndex, ends.from);
    const to = roomsOf(findIndex, ends.to);
    let graph = graphs.get(map);
    if (!graph) graphs.set(map, (graph = buildRouteGraph(map)));
    const route = routeBetween(graph, findIndex, ends);
    const exit = route && ends.to === EXIT ? exitName(findIndex, route) : undefined;
    const names = `${name(ends.from)} to ${exit ?? name(ends.to)}`;
    const text = route
      ? `${exit ? exitSummary(route, exit) : routeSummary(route)} From ${names}.`
      : !from.length || !to.length
        ? `No route: this map has no ${name(!from.length ? ends.from : ends.to)}.`
        : `No way joins ${names} on this map.`;
    return { route, text, active: true };
  }
  if (pendingEnds.from)
    return {
      route: undefined,
      text: `Route from ${name(pendingEnds.from)}: now pick where to.`,
      active: true,
    };
  if (pendingEnds.to)
    return { route: undefined, text: `Route to ${name(pendingEnds.to)}: now pick where from.`, active: true };
  return NO_ROUTE;
}
