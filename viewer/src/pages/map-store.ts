import type { MapData, Room } from '../../../renderer/map-types.ts';
import type { FindEntry, FindTargets } from '../map/find.ts';
import type { FloorId } from '../../../renderer/floors.ts';
import { buildScene } from '../../../renderer/scene.ts';
import type { FloorScene } from '../../../renderer/scene.ts';
import type { Route } from '../map/route-ends.ts';
import { serializeMapState } from '../state/url-state.ts';
import type { MapState } from '../state/url-state.ts';

// The map page's one state and its one way to change: `commit`. A commit merges the change,
// rebuilds what derives from it (the floor's scene), writes the URL and tells every subscriber
// what changed. Each part of the page follows the keys it shows and updates itself: the canvas
// redraws, the controls, Find, the route panel and the room card follow (Leaflet's Map: it keeps
// the state and fires events, its controls subscribe in onAdd).

/** Where the pointer or the keyboard crosshair is (what the info panel describes). */
export type Hover = { kind: 'point'; sx: number; sy: number } | { kind: 'centre' } | undefined;

/** The route the state names as found on the map, and what the route panel says of it. */
export interface RouteView {
  route: Route | undefined;
  /** The panel's line; empty when there is nothing to say. */
  text: string;
  /** Whether a route is under way (it can be cleared). */
  active: boolean;
}

export const NO_ROUTE: RouteView = { route: undefined, text: '', active: false };

/** What the page knows beyond the link: the loaded map, what derives from it, the reader's focus. */
export interface MapModel {
  /** Everything a link carries. */
  state: MapState;
  map: MapData | undefined;
  findIndex: readonly FindEntry[];
  /** One end of a route picked while the other is still to come. */
  pendingEnds: { from?: string; to?: string };
  /** The route of `state.route` or `pendingEnds` on this map (map-routing.ts keeps it in step). */
  routed: RouteView;
  /** The room whose card stays open (tap, Enter, an elevator's arrival) until closed. */
  pinned: Room | undefined;
  hover: Hover;
  keyboard: boolean;
}

export type Change = keyof MapState | Exclude<keyof MapModel, 'state'>;

export interface CommitOptions {
  /** 'push': a new history entry now; 'replace': rewrite the entry soon (pans, zooms); 'none'. */
  url?: 'push' | 'replace' | 'none';
}

export type Patch = Partial<Omit<MapModel, 'state'>> & { state?: Partial<MapState> };

export type Listener = (m: Readonly<MapModel>, changed: ReadonlySet<Change>) => void;

export interface MapStore {
  readonly model: Readonly<MapModel>;
  commit(patch: Patch, opts?: CommitOptions): void;
  subscribe(fn: Listener): () => void;
  /** Calls `fn` after each commit that changed any of `keys`; returns the unsubscribe. */
  follow(keys: readonly Change[], fn: (m: Readonly<MapModel>) => void): () => void;
  /** The current floor's scene (built once per map and floor). */
  scene(): FloorScene | undefined;
  /** Any floor's scene: a pinned room's card describes it on its own floor. */
  sceneOf(floor: FloorId): FloorScene | undefined;
  /** What Find chose, and its things on the shown floor. */
  found(): FindEntry | undefined;
  foundTargets(): FindTargets | undefined;
  dispose(): void;
}

const URL_WRITE_DELAY_MS = 300;

function changedKeys(before: MapModel, patch: Patch): Set<Change> {
  const out = new Set<Change>();
  for (const [k, v] of Object.entries(patch.state ?? {}))
    if (JSON.stringify(before.state[k as keyof MapState]) !== JSON.stringify(v)) out.add(k as Change);
  for (const [k, v] of Object.entries(patch))
    if (k !== 'state' && before[k as keyof MapModel] !== v) out.add(k as Change);
  return out;
}

function modelOf(state: MapState): MapModel {
  return {
    state,
    map: undefined,
    findIndex: [],
    pendingEnds: {},
    routed: NO_ROUTE,
    pinned: undefined,
    hover: undefined,
    keyboard: false,
  };
}

/** A new map (undefined: none), as a patch: its Find index comes when first needed (map-page.ts). */
export const mapPatch = (map: MapData | undefined): Patch => ({ map, findIndex: [] });

export function createMapStore(initial: MapState, writeUrl: (url: string, push: boolean) => void): MapStore {
  let model = modelOf(initial);
  const listeners = new Set<Listener>();
  const scenes = new Map<FloorId, FloorScene>();
  let urlTimer: ReturnType<typeof setTimeout> | undefined;

  const sceneOf = (floor: FloorId): FloorScene | undefined => {
    if (!model.map) return undefined;
    let s = scenes.get(floor);
    if (!s) scenes.set(floor, (s = buildScene(model.map, floor)));
    return s;
  };
  const writeNow = (push: boolean): void => {
    clearTimeout(urlTimer);
    urlTimer = undefined;
    writeUrl(serializeMapState(model.state), push);
  };
  const store: MapStore = {
    get model() {
      return model;
    },
    commit(patch, opts = {}) {
      const changed = changedKeys(model, patch);
      model = { ...model, ...patch, state: { ...model.state, ...patch.state } };
      if (changed.has('map')) scenes.clear();
      if (opts.url === 'push') writeNow(true);
      else if (opts.url === 'replace') {
        clearTimeout(urlTimer);
        urlTimer = setTimeout(() => writeNow(false), URL_WRITE_DELAY_MS);
      }
      if (!changed.size) return;
      for (const fn of [...listeners]) fn(model, changed);
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    follow: (keys, fn) =>
      store.subscribe((m, changed) => {
        if (keys.some((k) => changed.has(k))) fn(m);
      }),
    scene: () => sceneOf(model.state.floor),
    sceneOf,
    found: () => (model.state.find ? model.findIndex.find((e) => e.id === model.state.find) : undefined),
    foundTargets: () => store.found()?.floors[model.state.floor],
    dispose() {
      clearTimeout(urlTimer);
      listeners.clear();
    },
  };
  return store;
}
