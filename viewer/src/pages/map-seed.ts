import type { AppContext } from '../app-context.ts';
import { loadMap } from '../load/map-loader.ts';
import type { LoadState, MapLoad } from '../load/map-loader.ts';
import { nextSeed, previousSeed, randomSeed } from '../load/seed-walk.ts';
import type { WalkResult } from '../load/seed-walk.ts';
import { itemOptions, structureOptions } from '../../../renderer/spawn-filter.ts';
import { parseSeed, serializeMapState } from '../state/url-state.ts';
import type { MapState } from '../state/url-state.ts';
import type { MapCanvas } from './map-canvas.ts';
import type { Controls } from './map-controls.ts';
import type { MapLayout } from './map-layout.ts';
import type { StatusView } from './map-status.ts';
import { mapPatch } from './map-store.ts';
import type { MapStore } from './map-store.ts';
import { createSeedBox } from './seed-box.ts';
import type { SeedBox, SeedStep } from './seed-box.ts';

// Which seed is shown: loading its map (with the honest states on the way), typing a seed, and
// stepping through the seed list.

export interface SeedFlow {
  /** The seed box, where a seed is typed or stepped to. */
  box: HTMLElement;
  step(step: SeedStep): Promise<void>;
  /** (Re)load the seed the state names. */
  start(): void;
  cancel(): void;
}

export interface SeedDeps {
  main: HTMLElement;
  ctx: AppContext;
  store: MapStore;
  canvas: MapCanvas;
  controls: Controls;
  status: StatusView;
  layout: MapLayout;
}

const WALK_NOTE: Record<'first' | 'last' | 'empty' | 'far', string> = {
  first: 'This is the newest seed in the list.',
  last: 'This is the oldest seed in the list.',
  empty: 'No seed has a generated map yet.',
  far: 'This seed is too far down the list to step back from here.',
};
const INVALID = 'A seed is a whole number from 1 to 2147483647.';

interface SeedLoader {
  /** The seed whose map is loading or shown; undefined when the state names none. */
  seed(): number | undefined;
  start(): void;
  cancel(): void;
}

/** Loads the map of the seed the state names, and shows each state on the way. */
function seedLoader(d: SeedDeps, box: SeedBox): SeedLoader {
  const { store, controls } = d;
  let load: MapLoad | undefined;
  let loadedSeed: number | undefined;

  /** Disables "Next" on the oldest seed of the list, and says why. */
  async function markOldest(seed: number): Promise<void> {
    const r = await nextSeed(d.ctx.fetcher, seed).catch(() => undefined);
    if (loadedSeed !== seed || !r || !('none' in r) || r.none !== 'last') return;
    box.setOldest(true);
    box.setNote(WALK_NOTE.last);
  }

  function onLoadState(s: LoadState): void {
    const { state } = store.model;
    d.main.dataset.state = s.state;
    d.status.show(state.seed.kind === 'valid' ? state.seed.seed : undefined, s);
    if (s.state === 'invalid') {
      box.setError(`The server refused this seed: ${s.message}.`);
      d.layout.setPanel(true);
    }
    if (s.state !== 'ready') return;
    controls.setMapReady(true);
    controls.setFilterOptions(itemOptions(s.map.spawns), structureOptions(s.map.spawns), state);
    void markOldest(s.map.seed);
    d.canvas.timeFirstDraw(s.perfTime);
    store.commit(mapPatch(s.map));
    // Draw at once rather than on the next frame: the first picture is what the user waits for.
    d.canvas.drawNow();
  }

  function idle(kind: 'none' | 'invalid'): void {
    d.main.dataset.state = kind === 'none' ? 'idle' : 'invalid';
    d.status.show(
      undefined,
      kind === 'none' ? { state: 'idle' } : { state: 'invalid', message: 'invalid seed' },
    );
    box.setError(kind === 'none' ? undefined : INVALID);
    d.layout.setPanel(true);
  }

  const loader: SeedLoader = {
    seed: () => loadedSeed,
    start() {
      loader.cancel();
      controls.setMapReady(false);
      box.setOldest(false);
      controls.setFilterOptions(itemOptions([]), structureOptions([]), store.model.state);
      store.commit({ ...mapPatch(undefined), pinned: undefined });
      const seed = store.model.state.seed;
      loadedSeed = seed.kind === 'valid' ? seed.seed : undefined;
      if (seed.kind !== 'valid') return idle(seed.kind);
      box.setError(undefined);
      load = loadMap(
        seed.seed,
        {
          fetch: d.ctx.fetcher,
          now: Date.now,
          setTimer: (fn, ms) => window.setTimeout(fn, ms),
          clearTimer: (t) => window.clearTimeout(t as number),
        },
        onLoadState,
      );
    },
    cancel() {
      load?.cancel();
      load = undefined;
    },
  };
  return loader;
}

/** The seed box and the seeds it opens: typed, or stepped to through the seed list. */
export function seedFlow(d: SeedDeps): SeedFlow {
  const { store } = d;
  let stepping = false;
  const box = createSeedBox(store, { submit, step: (s) => void step(s) });
  const loader = seedLoader(d, box);

  function open(seed: number): void {
    const next: Partial<MapState> = { seed: { kind: 'valid', seed }, zoom: 1, cx: undefined, cz: undefined };
    if (loader.seed() === seed) {
      // Same seed again: keep a loaded map and only reset the view; otherwise ask again now.
      store.commit({ state: next }, { url: 'replace' });
      if (!store.model.map) loader.start();
      return;
    }
    // Another map: what was found on this one means nothing there.
    d.ctx.navigate(serializeMapState({ ...store.model.state, ...next, find: undefined }));
  }

  function submit(raw: string): void {
    const seed = parseSeed(raw);
    if (seed.kind !== 'valid') {
      box.setError(seed.kind === 'none' ? 'Enter a seed.' : INVALID);
      if (seed.kind === 'invalid') d.main.dataset.state = 'invalid';
      return;
    }
    box.setError(undefined);
    d.layout.setPanel(false);
    open(seed.seed);
  }

  async function step(step: SeedStep): Promise<void> {
    if (stepping) return;
    stepping = true;
    const { seed } = store.model.state;
    const walk = step === 'next' ? nextSeed : step === 'previous' ? previousSeed : randomSeed;
    box.setNote(undefined);
    let r: WalkResult | undefined;
    try {
      r = await walk(d.ctx.fetcher, seed.kind === 'valid' ? seed.seed : undefined);
    } catch {
      box.setNote('The seed list could not be read; try again in a moment.');
    } finally {
      stepping = false;
    }
    if (!r) return;
    if ('seed' in r) {
      d.layout.setPanel(false);
      open(r.seed);
    } else box.setNote(WALK_NOTE[r.none]);
  }

  return { box: box.el, step, start: loader.start, cancel: loader.cancel };
}
