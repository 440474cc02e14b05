import { FIND_ID } from '../map/find-target.ts';
import { DEFAULT_FLOOR, isFloorId } from '../../../renderer/floors.ts';
import type { FloorId } from '../../../renderer/floors.ts';
import type { Layers } from '../../../renderer/render-map.ts';
import { parseRouteEnds, serializeRouteEnds } from '../map/route-ends.ts';
import type { RouteEnds } from '../map/route-ends.ts';
import { ALL } from '../../../renderer/spawn-filter.ts';
import { clampZoom } from '../../../renderer/view-transform.ts';
import { parseSeed, type SeedInput } from './seed.ts';

// Deep-link state of the map view. Everything but the seed lives in the query string; the seed
// may be in the path (/seed/123) or the query (/?seed=123), and the form the page was opened with
// is kept when the state is written back.

export { MAX_SEED, parseSeed, type SeedInput } from './seed.ts';

export interface MapState {
  seed: SeedInput;
  floor: FloorId;
  layers: Layers;
  item: string;
  struct: string;
  /** What "Find on this map" chose (a FindEntry id), shown on `floor`. */
  find: string | undefined;
  /** A route between two rooms, each end a `room:` id as `find` uses. */
  route: RouteEnds | undefined;
  zoom: number;
  /** View centre in world metres; undefined = centre of the floor. */
  cx: number | undefined;
  cz: number | undefined;
  /** Where the seed is written. */
  form: 'path' | 'query';
}

export const DEFAULT_LAYERS: Readonly<Layers> = {
  doors: true,
  teslas: true,
  structures: false,
  items: false,
};
const LAYER_KEYS = ['doors', 'teslas', 'structures', 'items'] as const;

function parseLayers(raw: string | null): Layers {
  if (raw === null) return { ...DEFAULT_LAYERS };
  const on = new Set(raw.split(',').map((s) => s.trim()));
  return {
    doors: on.has('doors'),
    teslas: on.has('teslas'),
    structures: on.has('structures'),
    items: on.has('items'),
  };
}

function parseNumber(raw: string | null): number | undefined {
  if (raw === null || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

/** Filter values are type names or group ids; anything else falls back to all. */
function parseFilter(raw: string | null): string {
  return raw && /^[A-Za-z0-9_-]{1,64}$/.test(raw) ? raw : ALL;
}

/** `path` is relative to the viewer's base (it starts with "/"). */
export function parseMapState(path: string, search: string): MapState {
  const q = new URLSearchParams(search);
  const m = /^\/seed\/([^/]*)\/?$/.exec(path);
  const form = m ? 'path' : 'query';
  const seedRaw = m ? decodeURIComponent(m[1] ?? '') : q.get('seed');
  const floorRaw = q.get('floor');
  return {
    seed: parseSeed(seedRaw),
    floor: isFloorId(floorRaw) ? floorRaw : DEFAULT_FLOOR,
    layers: parseLayers(q.get('layers')),
    item: parseFilter(q.get('item')),
    struct: parseFilter(q.get('struct')),
    find: FIND_ID.test(q.get('find') ?? '') ? (q.get('find') ?? undefined) : undefined,
    route: parseRouteEnds(q.get('route')),
    zoom: clampZoom(parseNumber(q.get('zoom')) ?? 1),
    cx: parseNumber(q.get('cx')),
    cz: parseNumber(q.get('cz')),
    form,
  };
}

const round = (n: number, digits: number): string => String(Number(n.toFixed(digits)));

/** Path (relative to the base) and query string of a state, in a stable key order. */
export function serializeMapState(s: MapState): string {
  const q = new URLSearchParams();
  const seedText =
    s.seed.kind === 'valid' ? String(s.seed.seed) : s.seed.kind === 'invalid' ? s.seed.raw : '';
  const usePath = s.form === 'path' && seedText !== '';
  if (!usePath && seedText) q.set('seed', seedText);
  q.set('floor', s.floor);
  const layers = LAYER_KEYS.filter((k) => s.layers[k]);
  q.set('layers', layers.length ? layers.join(',') : 'none');
  if (s.item !== ALL) q.set('item', s.item);
  if (s.struct !== ALL) q.set('struct', s.struct);
  if (s.find) q.set('find', s.find);
  if (s.route) q.set('route', serializeRouteEnds(s.route));
  if (Math.abs(s.zoom - 1) > 0.001) q.set('zoom', round(s.zoom, 2));
  if (s.cx !== undefined && s.cz !== undefined) {
    q.set('cx', round(s.cx, 1));
    q.set('cz', round(s.cz, 1));
  }
  const path = usePath ? `/seed/${encodeURIComponent(seedText)}` : '/';
  // Commas, colons and tildes are legal in a query; keeping them unescaped makes shared links readable.
  return `${path}?${q.toString().replace(/%2C/gi, ',').replace(/%3A/gi, ':').replace(/%7E/gi, '~')}`;
}
