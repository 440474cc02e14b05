import type { Spawn } from '../../../renderer/map-types.ts';
import type { AppContext, Page } from '../app-context.ts';
import { h } from '../dom.ts';
import { floorName, mapSummary, matchesPerFloor } from '../map/describe.ts';
import type { FindResult } from '../map/find.ts';
import { FLOORS, floorById } from '../../../renderer/floors.ts';
import type { FloorId } from '../../../renderer/floors.ts';
import { floorLayouts } from '../map/layout-names.ts';
import {
  ALL,
  itemMatches,
  itemOptions,
  structureMatches,
  structureOptions,
} from '../../../renderer/spawn-filter.ts';
import { parseMapState } from '../state/url-state.ts';
import type { MapState } from '../state/url-state.ts';
import { createFindBox } from './find-box.ts';
import type { FindBox } from './find-box.ts';
import { createLegend } from './legend.ts';
import { createMapCanvas } from './map-canvas.ts';
import type { MapCanvas } from './map-canvas.ts';
import { createControls } from './map-controls.ts';
import type { ControlHandlers, Controls } from './map-controls.ts';
import type { MapInfo } from './map-info.ts';
import { attachInteraction } from './map-interaction.ts';
import { createLayout } from './map-layout.ts';
import type { RouteView } from './map-route.ts';
import { seedFlow } from './map-seed.ts';
import type { SeedFlow } from './map-seed.ts';
import { createStatus } from './map-status.ts';
import { anyOf, createMapStore } from './map-store.ts';
import type { MapStore } from './map-store.ts';
import { viewActions, ZOOM_STEP } from './map-view.ts';
import type { ViewActions } from './map-view.ts';
import { mapPicture } from './map-picture.ts';
import { attachPrintMap, pictureModule } from './print-map.ts';
import { createNorthMarker } from './north-marker.ts';
import { createRoutePanel } from './route-panel.ts';
import type { RoutePanel } from './route-panel.ts';
import { attachShortcuts } from './shortcuts.ts';
import { testHooksOn } from './test-hooks.ts';

// The map page, put together from parts around one store (map-store.ts): every part changes the
// view through `store.commit` and subscribes to what it shows.

/** An element's box over the map, in the canvas's CSS pixels. */
function overMap(canvas: HTMLElement, el: HTMLElement): { x0: number; y0: number; x1: number; y1: number } {
  const c = canvas.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  return { x0: r.left - c.left, y0: r.top - c.top, x1: r.right - c.left, y1: r.bottom - c.top };
}

/** "Matching items: LCZ 3 · HCZ + EZ 1 · Surface 0", each floor a button. */
function showMatches(store: MapStore, controls: Controls): void {
  controls.matches.replaceChildren();
  const { map, state } = store.model;
  if (!map) return;
  const parts: [string, (s: Spawn) => boolean][] = [];
  if (state.item !== ALL) parts.push(['items', (s) => itemMatches(s, state.item)]);
  if (state.struct !== ALL) parts.push(['structures', (s) => structureMatches(s, state.struct)]);
  for (const [what, test] of parts) {
    const per = matchesPerFloor(map.spawns, test);
    const line = h('span', {}, `Matching ${what}: `);
    FLOORS.forEach((f, i) => {
      const b = h('button', { type: 'button', class: 'link', 'data-floor': f.id }, `${f.label} ${per[f.id]}`);
      b.addEventListener('click', () =>
        store.commit({ state: { floor: f.id, cx: undefined, cz: undefined, zoom: 1 } }, { url: 'push' }),
      );
      line.append(i ? ' · ' : '', b);
    });
    controls.matches.append(line, ' ');
  }
}

/** The page's words for the shown map: title, caption, canvas label and text summary. */
function showHead(store: MapStore, canvas: MapCanvas, caption: HTMLElement, summary: HTMLElement): void {
  const { map, state } = store.model;
  canvas.el.setAttribute(
    'aria-label',
    map ? `Map of seed ${map.seed}, ${floorName(state.floor)}` : 'Facility map (no seed loaded)',
  );
  document.title = map ? `Seed ${map.seed} · ${floorName(state.floor)} – seedblock` : 'Map – seedblock';
  // The layout's name where the map has one: "Seed 5 · LCZ layout 4", else the floor's short name.
  const where = map ? floorLayouts(map, state.floor).join(' · ') || floorById(state.floor).short : '';
  caption.textContent = map ? `Seed ${map.seed} · ${where}` : '';
  caption.hidden = !map;
  summary.replaceChildren(...(map ? mapSummary(map, state.floor).map((line) => h('p', {}, line)) : []));
}

interface Wiring {
  store: MapStore;
  canvas: MapCanvas;
  view: ViewActions;
  seeds: SeedFlow;
  controls: Controls;
  narrowFocus(): void;
}

function chooseFound(w: Wiring, r: FindResult): void {
  const { store, view } = w;
  store.commit({ state: { find: r.entry.id, floor: r.floor } });
  const t = r.entry.floors[r.floor];
  const scene = store.scene();
  store.commit({ state: t && scene ? view.viewOn(t, scene) : {} }, { url: 'push' });
  w.narrowFocus();
}

/**
 * Builds the map's Find index the first time something needs it (Find, a link naming something
 * found or a route, the room card): a first visit that uses none of them never loads it.
 */
function needIndex(store: MapStore, view: ViewActions, canvas: MapCanvas): void {
  const { map } = store.model;
  if (!map || store.model.findIndex.length) return;
  void import('./map-tools.ts').then(({ buildFindIndex }) => {
    if (store.model.map !== map || store.model.findIndex.length) return;
    store.commit({ findIndex: buildFindIndex(map) });
    // A shared link naming something found but no view: open on what it names.
    const { cx, cz } = store.model.state;
    const t = store.foundTargets();
    const scene = store.scene();
    if (t && scene && (cx === undefined || cz === undefined)) store.commit({ state: view.viewOn(t, scene) });
    // Drawn with what the box and the route panel now say, not a frame later.
    canvas.drawNow();
  });
}

function setRouteEnd(store: MapStore, end: 'from' | 'to', id: string): void {
  const { state, pendingEnds } = store.model;
  const ends = { ...(state.route ?? pendingEnds), [end]: id };
  // One end so far: keep it and ask for the other.
  if (ends.from && ends.to)
    store.commit({ state: { route: { from: ends.from, to: ends.to } }, pendingEnds: {} }, { url: 'push' });
  else store.commit({ state: { route: undefined }, pendingEnds: ends }, { url: 'push' });
}

function attachInput(w: Wiring): () => void {
  const { store, canvas, view } = w;
  const pinAt = (sx: number, sy: number): void => {
    const e = canvas.elevatorAt(sx, sy);
    if (e) return view.takeElevator(e);
    // A tap or Enter opens the room's card for good (its buttons can then be reached); empty map closes it.
    store.commit({ pinned: canvas.roomAtPoint(sx, sy) });
  };
  return attachInteraction(canvas.el, {
    pan: view.pan,
    zoom: view.zoom,
    reset: view.reset,
    hover(sx, sy) {
      store.commit({ hover: { kind: 'point', sx, sy } });
      canvas.el.classList.toggle('over-elevator', !!canvas.elevatorAt(sx, sy));
    },
    leave() {
      if (store.model.hover?.kind === 'point') store.commit({ hover: undefined });
    },
    tap(sx, sy) {
      store.commit({ hover: { kind: 'point', sx, sy } });
      pinAt(sx, sy);
    },
    keyboard(active) {
      const hover = store.model.hover;
      store.commit({
        keyboard: active,
        hover: active ? { kind: 'centre' } : hover?.kind === 'centre' ? undefined : hover,
      });
    },
    activate() {
      const vp = canvas.viewport();
      store.commit({ hover: { kind: 'centre' } });
      pinAt(vp.width / 2, vp.height / 2);
    },
    settle: () => store.commit({}, { url: 'replace' }),
  });
}

/** The controls that only change the state: floor, layers and filters. */
function stateHandlers(
  store: MapStore,
): Pick<ControlHandlers, 'setFloor' | 'setLayer' | 'setItemFilter' | 'setStructFilter'> {
  const filter = (patch: Partial<MapState>): void => store.commit({ state: patch }, { url: 'replace' });
  const layers = (): MapState['layers'] => store.model.state.layers;
  return {
    setFloor: (floor) => showFloor(store, floor),
    setLayer: (key, on) => filter({ layers: { ...layers(), [key]: on } }),
    // Choosing a filter shows its layer.
    setItemFilter: (item) => filter({ item, layers: { ...layers(), items: layers().items || item !== ALL } }),
    setStructFilter: (struct) =>
      filter({ struct, layers: { ...layers(), structures: layers().structures || struct !== ALL } }),
  };
}

function showFloor(store: MapStore, floor: FloorId): void {
  store.commit({ state: { floor, cx: undefined, cz: undefined, zoom: 1 } }, { url: 'push' });
}

interface Followers {
  controls: Controls;
  find: FindBox;
  routePanel: RoutePanel;
  canvas: MapCanvas;
  caption: HTMLElement;
  summary: HTMLElement;
  /** Keeps the route the state names, for drawing and pictures. */
  setRoute(view: RouteView): void;
  needIndex(): void;
}

const NO_ROUTE: RouteView = { route: undefined, text: '', active: false };

/** The route the state names and its panel line; the routing code loads with the first route asked for. */
function showRoute(store: MapStore, f: Followers): void {
  const apply = (r: RouteView): void => {
    f.setRoute(r);
    f.routePanel.show(r.text, r.active);
    if (testHooksOn()) f.canvas.el.dataset.route = r.route ? String(r.route.rooms.length) : '';
  };
  const { map, state, pendingEnds } = store.model;
  if (!map || !(state.route || pendingEnds.from || pendingEnds.to)) return apply(NO_ROUTE);
  // The ends are named in the Find index: shown once it is there (a commit of it calls this again).
  if (!store.model.findIndex.length) return f.needIndex();
  // Shown for the model as it is when the code is there, so a late answer is never stale.
  void import('./map-tools.ts').then((m) => {
    apply(m.routeView(store.model));
    // Drawn with the panel's line, not a frame later.
    f.canvas.drawNow();
  });
}

/** Each part follows the store: on a commit it updates what it shows of what changed. */
function follow(store: MapStore, f: Followers): void {
  store.subscribe((m, changed) => {
    if (anyOf(changed, 'map', 'find') && m.state.find) f.needIndex();
    if (anyOf(changed, 'seed', 'floor', 'layers', 'item', 'struct')) f.controls.sync(m.state);
    if (anyOf(changed, 'map', 'item', 'struct')) showMatches(store, f.controls);
    if (anyOf(changed, 'findIndex')) f.find.setIndex(m.map ? m.findIndex : undefined);
    if (anyOf(changed, 'map', 'find', 'floor', 'findIndex')) f.find.showChosen(store.found());
    if (anyOf(changed, 'map', 'route', 'pendingEnds', 'findIndex')) showRoute(store, f);
    if (anyOf(changed, 'map', 'find', 'findIndex')) {
      const found = store.found();
      f.routePanel.setFound(m.map && found?.kind === 'room' ? { id: found.id, name: found.name } : undefined);
    }
    if (anyOf(changed, 'map', 'floor')) showHead(store, f.canvas, f.caption, f.summary);
    f.canvas.requestDraw();
  });
}

/** The info panel over the map; its code loads with the first hover, tap or key on the map (not on a first visit). */
function lazyInfo(
  store: MapStore,
  canvas: () => MapCanvas,
  loaded: () => void,
): { el: HTMLElement; show: MapInfo['update'] } {
  const el = h('div', { class: 'info', id: 'map-info', 'aria-live': 'polite', hidden: true });
  let info: MapInfo | Promise<unknown> | undefined;
  return {
    el,
    show(...a) {
      if (info && 'update' in info) return info.update(...a);
      if (info || (!store.model.hover && !store.model.pinned)) return;
      info = import('./map-tools.ts').then((m) => {
        info = m.createMapInfo({
          el,
          store,
          canvas: canvas(),
          route: (end, id) => setRouteEnd(store, end, id),
        });
        loaded();
      });
    },
  };
}

export function mountMapPage(main: HTMLElement, ctx: AppContext, path: string, search: string): Page {
  const store = createMapStore(parseMapState(path, search), (rel, push) => {
    const url = ctx.base + rel;
    if (url === location.pathname + location.search) return;
    if (push) history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  });
  let routed = NO_ROUTE;
  const status = createStatus();
  const north = createNorthMarker();
  const legend = createLegend();
  const routePanel = createRoutePanel({
    route: (end, id) => setRouteEnd(store, end, id),
    clear: () => store.commit({ state: { route: undefined }, pendingEnds: {} }, { url: 'push' }),
  });
  const caption = h('p', { class: 'map-caption', 'aria-hidden': 'true', hidden: true });
  const summary = h('div', { id: 'map-summary', class: 'visually-hidden' });
  const canvas: MapCanvas = createMapCanvas({
    store,
    route: () => routed.route,
    avoid: () => [overMap(canvas.el, controls.viewActions), overMap(canvas.el, north.el)],
    drawn(t, r) {
      info.show(t, r);
      north.show(t?.turn);
    },
  });
  const info = lazyInfo(
    store,
    () => canvas,
    () => {
      // The card offers routes by the rooms' Find ids.
      needIndex(store, view, canvas);
      canvas.requestDraw();
    },
  );
  const view = viewActions(store, canvas);
  const picture = (): ReturnType<typeof mapPicture> => mapPicture(store, legend, routed);
  const controls = createControls({
    submitSeed: (raw) => seeds.submit(raw),
    stepSeed: (step) => void seeds.step(step),
    ...stateHandlers(store),
    zoomIn: () => view.zoomCentre(ZOOM_STEP),
    zoomOut: () => view.zoomCentre(1 / ZOOM_STEP),
    reset: view.reset,
    download() {
      const p = picture();
      if (p) void pictureModule().then((m) => m.downloadFloorPng(p));
    },
    togglePanel: () => layout.setPanel(layout.panel.hidden),
  });
  const find = createFindBox({
    choose: (r) => chooseFound(wiring, r),
    clear: () => store.commit({ state: { find: undefined } }, { url: 'push' }),
    needIndex: () => needIndex(store, view, canvas),
  });
  const shortcutsButton = h('button', { type: 'button', class: 'link' }, 'Keyboard shortcuts (?)');
  const keysHelp = h(
    'p',
    { id: 'map-keys', class: 'hint' },
    'Drag or use the arrow keys to move, wheel, pinch or + and − to zoom, 0 to fit. Click an elevator to change floor.',
  );
  const more = h(
    'div',
    { class: 'map-more' },
    controls.filters,
    controls.matches,
    legend,
    keysHelp,
    h('p', { class: 'hint' }, shortcutsButton),
  );
  const area = h(
    'div',
    { class: 'map-area' },
    h('div', { class: 'map-wrap' }, canvas.el, info.el),
    caption,
    north.el,
    controls.viewActions,
    status.el,
  );
  const layout = createLayout(
    { main, controls, find, routePanel, legend, area, more, summary, changed: () => canvas.requestDraw() },
    () => !store.model.map && store.model.state.seed.kind !== 'valid',
  );
  const seeds = seedFlow({ main, ctx, store, canvas, controls, status, layout, view });
  const wiring: Wiring = {
    store,
    canvas,
    view,
    seeds,
    controls,
    narrowFocus: () => layout.narrow() && canvas.el.focus({ preventScroll: true }),
  };

  follow(store, {
    controls,
    find,
    routePanel,
    canvas,
    caption,
    summary,
    setRoute: (r) => void (routed = r),
    needIndex: () => needIndex(store, view, canvas),
  });
  shortcutsButton.addEventListener('click', () => shortcuts.show());
  const detachInput = attachInput(wiring);
  const shortcuts = attachShortcuts(main, {
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
  const detachPrint = attachPrintMap(area, picture);
  const resize = new ResizeObserver(() => canvas.requestDraw());
  resize.observe(canvas.el);
  layout.arrange(!store.model.map && store.model.state.seed.kind !== 'valid');
  controls.sync(store.model.state);
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
