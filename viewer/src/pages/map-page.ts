import type { AppContext, Page } from '../app-context.ts';
import { h } from '../dom.ts';
import { FLOORS } from '../../../renderer/floors.ts';
import { itemOptions, structureOptions } from '../../../renderer/spawn-filter.ts';
import { parseMapState } from '../state/url-state.ts';
import { findIndexLoader } from './find-index.ts';
import { createFindBox } from './find-box.ts';
import type { FindBox } from './find-box.ts';
import { createInfoPanel } from './info-panel.ts';
import { createLegend } from './legend.ts';
import { attachInput, chooseFound, setRouteEnd, showFloor, stateHandlers } from './map-actions.ts';
import { createMapCanvas } from './map-canvas.ts';
import { createControls } from './map-controls.ts';
import { createMapHead } from './map-head.ts';
import { createLayout } from './map-layout.ts';
import type { MapLayout } from './map-layout.ts';
import { createMatches } from './map-matches.ts';
import { followRouting } from './map-routing.ts';
import { seedFlow } from './map-seed.ts';
import type { SeedFlow } from './map-seed.ts';
import { createStatus } from './map-status.ts';
import { createMapStore } from './map-store.ts';
import type { MapStore } from './map-store.ts';
import { viewActions, ZOOM_STEP } from './map-view.ts';
import type { ViewActions } from './map-view.ts';
import { mapPicture } from './map-picture.ts';
import { attachPrintMap, pictureModule } from './print-map.ts';
import { createNorthMarker } from './north-marker.ts';
import { createRoutePanel } from './route-panel.ts';
import { attachShortcuts } from './shortcuts.ts';

// The map page, put together from parts around one store (map-store.ts): every part changes the
// view through `store.commit` and follows the keys of the store it shows (as Leaflet's controls
// subscribe in onAdd); the canvas's frames are followed by what sits over the map.

/** The store of a map page at `path` and `search`, writing the page's link as the state changes. */
function pageStore(ctx: AppContext, path: string, search: string): MapStore {
  return createMapStore(parseMapState(path, search), (rel, push) => {
    const url = ctx.base + rel;
    if (url === location.pathname + location.search) return;
    if (push) history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  });
}

/** The "More" part of the panel: filters and their matches, the legend, and help for the map. */
function morePart(filters: HTMLElement, matches: HTMLElement, legend: HTMLElement, shortcuts: HTMLElement) {
  const keysHelp = h(
    'p',
    { id: 'map-keys', class: 'hint' },
    'Drag or use the arrow keys to move, wheel, pinch or + and − to zoom, 0 to fit. Click an elevator to change floor.',
  );
  return h(
    'div',
    { class: 'map-more' },
    filters,
    matches,
    legend,
    keysHelp,
    h('p', { class: 'hint' }, shortcuts),
  );
}

/** The page's keyboard shortcuts (shortcuts.ts): Find, the seed list, floors and zoom. */
function pageShortcuts(
  main: HTMLElement,
  {
    store,
    view,
    layout,
    find,
    seeds,
  }: { store: MapStore; view: ViewActions; layout: MapLayout; find: FindBox; seeds: SeedFlow },
): ReturnType<typeof attachShortcuts> {
  return attachShortcuts(main, {
    find() {
      if (layout.narrow()) layout.setPanel(false);
      find.input.focus();
    },
    step: (step) => void seeds.step(step),
    floor(n) {
      const f = FLOORS[n];
      if (f && store.model.map) showFloor(store, f.id);
    },
    zoomIn: () => view.zoomCentre(ZOOM_STEP),
    zoomOut: () => view.zoomCentre(1 / ZOOM_STEP),
    fit: view.reset,
  });
}

export function mountMapPage(main: HTMLElement, ctx: AppContext, path: string, search: string): Page {
  const store = pageStore(ctx, path, search);
  const canvas = createMapCanvas(store);
  const view = viewActions(store, canvas);
  const needIndex = findIndexLoader(store, view, canvas);
  followRouting(store, needIndex, canvas);
  const nothingYet = (): boolean => !store.model.map && store.model.state.seed.kind !== 'valid';
  const layout = createLayout(main, { panelOpen: nothingYet, changed: () => canvas.requestDraw() });
  const status = createStatus();
  const legend = createLegend();
  const head = createMapHead(store, canvas.el);
  const route = (end: 'from' | 'to', id: string): void => setRouteEnd(store, end, id);
  const routePanel = createRoutePanel(store, {
    route,
    clear: () => store.commit({ state: { route: undefined }, pendingEnds: {} }, { url: 'push' }),
  });
  // The card offers routes by the rooms' Find ids.
  const info = createInfoPanel(store, canvas, {
    route,
    loaded() {
      needIndex();
      canvas.requestDraw();
    },
  });
  const picture = () => mapPicture(store, legend);
  const controls = createControls(store, {
    ...stateHandlers(store),
    zoomIn: () => view.zoomCentre(ZOOM_STEP),
    zoomOut: () => view.zoomCentre(1 / ZOOM_STEP),
    reset: view.reset,
    download() {
      const p = picture();
      if (p) void pictureModule().then((m) => m.downloadFloorPng(p));
    },
  });
  canvas.keepClear(controls.viewActions);
  const seeds = seedFlow({ main, ctx, store, canvas, controls, status, layout });
  const find = createFindBox(store, {
    choose(r) {
      chooseFound(store, view, r);
      if (layout.narrow()) canvas.el.focus({ preventScroll: true });
    },
    clear: () => store.commit({ state: { find: undefined } }, { url: 'push' }),
    needIndex,
  });
  const shortcuts = pageShortcuts(main, { store, view, layout, find, seeds });
  const shortcutsButton = h('button', { type: 'button', class: 'link' }, 'Keyboard shortcuts (?)');
  shortcutsButton.addEventListener('click', () => shortcuts.show());
  const matches = createMatches(store, (floor) => showFloor(store, floor));
  const more = morePart(controls.filters, matches, legend, shortcutsButton);
  const area = h(
    'div',
    { class: 'map-area' },
    h('div', { class: 'map-wrap' }, canvas.el, info),
    head.caption,
    createNorthMarker(canvas),
    controls.viewActions,
    status.el,
  );
  layout.place({ controls, seedBox: seeds.box, find, routePanel, legend, area, more, summary: head.summary });

  const detachInput = attachInput(store, canvas, view);
  const detachPrint = attachPrintMap(area, picture);
  const resize = new ResizeObserver(() => canvas.requestDraw());
  resize.observe(canvas.el);
  controls.setMapReady(false);
  seeds.start();

  return {
    update(nextPath, nextSearch) {
      const next = parseMapState(nextPath, nextSearch);
      const sameSeed = JSON.stringify(next.seed) === JSON.stringify(store.model.state.seed);
      store.commit({ state: next });
      if (!sameSeed) return seeds.start();
      const map = store.model.map;
      if (map) controls.setFilterOptions(itemOptions(map.spawns), structureOptions(map.spawns), next);
    },
    unmount() {
      seeds.cancel();
      status.dispose();
      detachInput();
      shortcuts.detach();
      detachPrint();
      resize.disconnect();
      layout.dispose();
      canvas.dispose();
      store.dispose();
    },
  };
}
