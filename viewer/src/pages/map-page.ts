import type { MapData, Room, Spawn } from '../api/types.ts';
import type { AppContext, Page } from '../app-context.ts';
import { h } from '../dom.ts';
import { formatCoord } from '../format.ts';
import { loadMap } from '../load/map-loader.ts';
import type { LoadState, MapLoad } from '../load/map-loader.ts';
import { nextSeed, previousSeed, randomSeed } from '../load/seed-walk.ts';
import type { WalkResult } from '../load/seed-walk.ts';
import { doorInfo, floorName, mapSummary, matchesPerFloor, roomInfo, spawnInfo } from '../map/describe.ts';
import type { InfoLine } from '../map/describe.ts';
import { buildFindIndex, roomFindId, targetBounds } from '../map/find.ts';
import { describeRoom } from '../map/labels.ts';
import { floorLayouts } from '../map/layout-names.ts';
import { buildRouteGraph, roomsOf, routeOnFloor, routeSummary, shortestRoute } from '../map/route.ts';
import type { Route, RouteGraph } from '../map/route.ts';
import type { FindEntry, FindResult, FindTargets } from '../map/find.ts';
import { FLOORS, floorById, floorOfHeight, floorOfZone } from '../map/floors.ts';
import { elevatorUnder, nearest } from '../map/hit-test.ts';
import { roomKey } from '../map/links.ts';
import type { Box } from '../map/label-placement.ts';
import { BACKGROUND } from '../map/palette.ts';
import { renderMap } from '../map/render-map.ts';
import { drawCrosshair } from '../map/symbols.ts';
import type { ElevatorTarget, RenderResult } from '../map/render-map.ts';
import { buildScene, CELL, roomAt } from '../map/scene.ts';
import type { FloorScene } from '../map/scene.ts';
import { ALL, itemMatches, itemOptions, structureMatches, structureOptions } from '../map/spawn-filter.ts';
import {
  boundsCentre,
  clampCentre,
  clampZoom,
  fitScale,
  makeTransform,
  panBy,
  turned,
  zoomAt,
} from '../map/view-transform.ts';
import type { Transform, View, Viewport } from '../map/view-transform.ts';
import { parseMapState, parseSeed, serializeMapState } from '../state/url-state.ts';
import type { MapState } from '../state/url-state.ts';
import { createControls } from './map-controls.ts';
import type { SeedStep } from './map-controls.ts';
import { createFindBox } from './find-box.ts';
import { attachInteraction } from './map-interaction.ts';
import { createLegend } from './legend.ts';
import { createStatus } from './map-status.ts';
import { roomCard } from './room-card.ts';
import { createRoutePanel } from './route-panel.ts';
import { downloadFloorPng, type FloorPicture } from './png-export.ts';
import { attachPrintMap } from './print-map.ts';
import { attachShortcuts } from './shortcuts.ts';

const URL_WRITE_DELAY_MS = 300;

const ZOOM_STEP = 1.4;
/** How close "Find" zooms in on what it found, and below which it shows the whole floor. */
const FIND_MAX_ZOOM = 2.5;
const FIND_MIN_ZOOM = 1.4;

/** Below this width the controls fold into a panel and the map takes the screen. */
const NARROW = '(max-width: 899px)';

type Hover =
  | { kind: 'point'; sx: number; sy: number }
  | { kind: 'centre' } // keyboard crosshair
  | undefined;

const boxText = (b: Box): number[] => [b.x0, b.y0, b.x1, b.y1].map((n) => Math.round(n * 10) / 10);
const inBox = (b: Box, x: number, y: number): boolean => x >= b.x0 && x <= b.x1 && y >= b.y0 && y <= b.y1;

export function mountMapPage(main: HTMLElement, ctx: AppContext, path: string, search: string): Page {
  let state: MapState = parseMapState(path, search);
  let loadedSeed: number | undefined;
  let load: MapLoad | undefined;
  let map: MapData | undefined;
  let findIndex: FindEntry[] = [];
  let routeGraph: RouteGraph | undefined;
  let route: Route | undefined;
  /** One end of a route picked while the other is still to come. */
  let pendingEnds: { from?: string; to?: string } = {};
  /** The room whose card stays open (tap, Enter, an elevator's arrival) until another tap. */
  let pinned: Room | undefined;
  let scene: FloorScene | undefined;
  let hover: Hover;
  let keyboardMode = false;
  let lastRender: RenderResult | undefined;
  let lastTransform: Transform | undefined;
  let pendingFirstDraw: number | undefined;
  let urlTimer: number | undefined;
  let frame: number | undefined;
  let stepping = false;

  // ----- DOM -----
  const status = createStatus();
  const controls = createControls({
    submitSeed(raw) {
      const seed = parseSeed(raw);
      if (seed.kind !== 'valid') {
        controls.setSeedError(
          seed.kind === 'none' ? 'Enter a seed.' : 'A seed is a whole number from 1 to 2147483647.',
        );
        if (seed.kind === 'invalid') main.dataset.state = 'invalid';
        return;
      }
      controls.setSeedError(undefined);
      setPanel(false);
      openSeed(seed.seed);
    },
    stepSeed: (step) => void stepSeed(step),
    setFloor: showFloor,
    setLayer(layer, on) {
      state = { ...state, layers: { ...state.layers, [layer]: on } };
      afterFilterChange();
    },
    setItemFilter(value) {
      state = {
        ...state,
        item: value,
        layers: { ...state.layers, items: state.layers.items || value !== ALL },
      };
      afterFilterChange();
    },
    setStructFilter(value) {
      state = {
        ...state,
        struct: value,
        layers: { ...state.layers, structures: state.layers.structures || value !== ALL },
      };
      afterFilterChange();
    },
    zoomIn: () => zoomCentre(ZOOM_STEP),
    zoomOut: () => zoomCentre(1 / ZOOM_STEP),
    reset: resetView,
    download() {
      if (!map || !scene) return;
      downloadFloorPng(floorPictureOf(map.seed, scene));
    },
    togglePanel: () => setPanel(panel.hidden),
  });
  const find = createFindBox({
    choose: chooseFound,
    clear() {
      if (!state.find) return;
      state = { ...state, find: undefined };
      requestDraw();
      writeUrl(true);
    },
  });

  const routePanel = createRoutePanel({ route: setRouteEnd, clear: clearRoute });

  const canvas = h('canvas', {
    id: 'map-canvas',
    class: 'map-canvas',
    tabindex: 0,
    role: 'img',
    'aria-roledescription': 'interactive map',
    'aria-describedby': 'map-summary map-keys',
    'aria-label': 'Facility map',
  });
  const infoLines = h('div', { class: 'info-lines' });
  const infoCard = h('div', {});
  const info = h(
    'div',
    { class: 'info', id: 'map-info', 'aria-live': 'polite', hidden: true },
    infoLines,
    infoCard,
  );
  const summary = h('div', { id: 'map-summary', class: 'visually-hidden' });
  const keysHelp = h(
    'p',
    { id: 'map-keys', class: 'hint' },
    'Drag or use the arrow keys to move, wheel, pinch or + and − to zoom, 0 to fit. Click an elevator to change floor.',
  );
  const shortcutsButton = h('button', { type: 'button', class: 'link' }, 'Keyboard shortcuts (?)');
  shortcutsButton.addEventListener('click', () => shortcuts.show());
  // Which map this is, over the map itself (the seed box folds away on a phone).
  const caption = h('p', { class: 'map-caption', 'aria-hidden': 'true', hidden: true });
  const legend = createLegend();
  const more = h(
    'div',
    { class: 'map-more' },
    controls.filters,
    controls.matches,
    legend,
    keysHelp,
    h('p', { class: 'hint' }, shortcutsButton),
  );
  const panel = h('aside', { id: 'map-panel', class: 'map-panel', 'aria-label': 'Seed and map options' });
  const area = h(
    'div',
    { class: 'map-area' },
    h('div', { class: 'map-wrap' }, canvas, info),
    caption,
    controls.viewActions,
    status.el,
  );
  const heading = h('h1', { class: 'visually-hidden' }, 'Facility map');
  const top = h('div', { class: 'map-top' });

  // Wide screens: one side column with every control, the map beside it. Narrow: the search on
  // top, the map, then the quick bar (floors, layers); the seed box and filters fold into a panel.
  const narrow = window.matchMedia(NARROW);
  function arrange(): void {
    if (narrow.matches) {
      panel.replaceChildren(controls.seedBlock, more);
      top.replaceChildren(find.el, controls.panelToggle);
      // Over the map, so the route's summary shows with the panel folded.
      area.append(routePanel.el);
      main.append(heading, top, area, controls.quick, panel, summary);
      legend.open = false;
      setPanel(!map && state.seed.kind !== 'valid');
    } else {
      panel.replaceChildren(controls.seedBlock, find.el, routePanel.el, controls.quick, more);
      top.remove();
      main.append(heading, panel, area, summary);
      legend.open = true;
      setPanel(true);
    }
    requestDraw();
  }
  function setPanel(open: boolean): void {
    const folds = narrow.matches;
    panel.hidden = folds && !open;
    controls.panelToggle.setAttribute('aria-expanded', String(!panel.hidden));
  }
  narrow.addEventListener('change', arrange);
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && narrow.matches) {
      setPanel(false);
      controls.panelToggle.focus();
    }
  });
  arrange();
  controls.sync(state);
  controls.setMapReady(false);

  // ----- view -----
  const viewport = (): Viewport => ({ width: canvas.clientWidth || 1, height: canvas.clientHeight || 1 });

  function view(): View {
    const c = scene ? boundsCentre(scene.bounds) : { cx: 0, cz: 0 };
    return { cx: state.cx ?? c.cx, cz: state.cz ?? c.cz, zoom: state.zoom };
  }

  function setView(v: View): void {
    state = { ...state, cx: v.cx, cz: v.cz, zoom: v.zoom };
    requestDraw();
  }

  function zoomCentre(factor: number): void {
    if (!scene) return;
    const vp = viewport();
    setView(zoomAt(view(), scene.bounds, vp, factor, vp.width / 2, vp.height / 2));
    writeUrl(false);
  }

  function resetView(): void {
    state = { ...state, cx: undefined, cz: undefined, zoom: 1 };
    requestDraw();
    writeUrl(false);
  }

  function writeUrl(push: boolean): void {
    window.clearTimeout(urlTimer);
    const write = (): void => {
      const url = ctx.base + serializeMapState(state);
      if (url === location.pathname + location.search) return;
      if (push) history.pushState(null, '', url);
      else history.replaceState(null, '', url);
    };
    if (push) write();
    else urlTimer = window.setTimeout(write, URL_WRITE_DELAY_MS);
  }

  function afterFilterChange(): void {
    controls.sync(state);
    updateMatches();
    requestDraw();
    writeUrl(false);
  }

  // ----- moving between seeds -----
  function openSeed(seed: number): void {
    const next: MapState = { ...state, seed: { kind: 'valid', seed }, zoom: 1, cx: undefined, cz: undefined };
    if (loadedSeed === seed) {
      // Same seed again: keep a loaded map and only reset the view; otherwise ask again now.
      state = next;
      writeUrl(false);
      if (map) requestDraw();
      else startLoad();
      return;
    }
    // Another map: what was found on this one means nothing there.
    ctx.navigate(serializeMapState({ ...next, find: undefined }));
  }

  const WALK_NOTE: Record<'first' | 'last' | 'empty' | 'far', string> = {
    first: 'This is the newest seed in the list.',
    last: 'This is the oldest seed in the list.',
    empty: 'No seed has a generated map yet.',
    far: 'This seed is too far down the list to step back from here.',
  };

  async function stepSeed(step: SeedStep): Promise<void> {
    if (stepping) return;
    stepping = true;
    const current = state.seed.kind === 'valid' ? state.seed.seed : undefined;
    const walk = step === 'next' ? nextSeed : step === 'previous' ? previousSeed : randomSeed;
    controls.setSeedNote(undefined);
    let r: WalkResult | undefined;
    try {
      r = await walk(ctx.fetcher, current);
    } catch {
      controls.setSeedNote('The seed list could not be read; try again in a moment.');
    } finally {
      stepping = false;
    }
    if (!r) return;
    if ('seed' in r) {
      setPanel(false);
      openSeed(r.seed);
    } else controls.setSeedNote(WALK_NOTE[r.none]);
  }

  /** Disables "Next" on the oldest seed of the list, and says why. */
  async function markOldest(seed: number): Promise<void> {
    const r = await nextSeed(ctx.fetcher, seed).catch(() => undefined);
    if (loadedSeed !== seed || !r || !('none' in r) || r.none !== 'last') return;
    controls.setOldest(true);
    controls.setSeedNote(WALK_NOTE.last);
  }

  /** The whole floor as "PNG" saves it: the fit view, with what is on and found now. */
  function floorPictureOf(seed: number, sc: FloorScene): FloorPicture {
    return {
      bounds: sc.bounds,
      draw(g, vp) {
        const t = makeTransform({ ...boundsCentre(sc.bounds), zoom: 1 }, sc.bounds, vp);
        renderMap(g, sc, t, vp, {
          layers: state.layers,
          itemFilter: state.item,
          structureFilter: state.struct,
          hover: undefined,
          selection: foundTargets(),
        });
      },
      caption: `seedblock · seed ${seed} · ${floorName(state.floor)}`,
      legend,
      fileName: `seed-${seed}-${state.floor}.png`,
    };
  }

  // ----- find -----
  function foundEntry(): FindEntry | undefined {
    return state.find ? findIndex.find((e) => e.id === state.find) : undefined;
  }

  function foundTargets(): FindTargets | undefined {
    return foundEntry()?.floors[state.floor];
  }

  /**
   * Centre on the found things and zoom in until they fill the view, up to a limit; things spread
   * over most of the floor are shown with the whole floor instead.
   */
  function viewOn(t: FindTargets, sceneBounds: FloorScene['bounds']): Pick<MapState, 'cx' | 'cz' | 'zoom'> {
    const b = targetBounds(t);
    const m = 2 * CELL;
    const around = { minX: b.minX - m, maxX: b.maxX + m, minZ: b.minZ - m, maxZ: b.maxZ + m };
    const vp = viewport();
    const turn = turned(sceneBounds, vp);
    const zoom = clampZoom(
      Math.min(FIND_MAX_ZOOM, fitScale(around, vp, turn) / fitScale(sceneBounds, vp, turn)),
    );
    if (zoom < FIND_MIN_ZOOM) return { cx: undefined, cz: undefined, zoom: 1 };
    // Rounded as a link writes them, so a shared link shows exactly this view.
    const c = boundsCentre(around);
    const round = (n: number, step: number): number => Math.round(n / step) * step;
    return { cx: round(c.cx, 0.1), cz: round(c.cz, 0.1), zoom: round(zoom, 0.01) };
  }

  function chooseFound(r: FindResult): void {
    state = { ...state, find: r.entry.id, floor: r.floor };
    pinned = undefined;
    rebuildScene();
    const t = r.entry.floors[r.floor];
    if (scene && t) state = { ...state, ...viewOn(t, scene.bounds) };
    writeUrl(true);
    if (narrow.matches) canvas.focus({ preventScroll: true });
  }

  // ----- route -----
  const nameOfId = (id: string): string => findIndex.find((e) => e.id === id)?.name ?? id;

  function setRouteEnd(end: 'from' | 'to', id: string): void {
    const ends = { ...(state.route ?? pendingEnds), [end]: id };
    if (ends.from && ends.to) {
      state = { ...state, route: { from: ends.from, to: ends.to } };
      pendingEnds = {};
    } else {
      // One end so far: keep it and ask for the other.
      state = { ...state, route: undefined };
      pendingEnds = ends;
    }
    updateRoute();
    writeUrl(true);
  }

  function clearRoute(): void {
    pendingEnds = {};
    state = { ...state, route: undefined };
    updateRoute();
    writeUrl(true);
  }

  /** Works out the route the state names and says it in the status line. */
  function updateRoute(): void {
    route = undefined;
    const ends = state.route;
    if (!map || !routeGraph) {
      routePanel.show('', false);
    } else if (ends) {
      const from = roomsOf(findIndex, ends.from);
      const to = roomsOf(findIndex, ends.to);
      route = from.length && to.length ? shortestRoute(routeGraph, from, to) : undefined;
      const names = `${nameOfId(ends.from)} to ${nameOfId(ends.to)}`;
      routePanel.show(
        route
          ? `${routeSummary(route)} From ${names}.`
          : !from.length || !to.length
            ? `No route: this map has no ${!from.length ? nameOfId(ends.from) : nameOfId(ends.to)}.`
            : `No way joins ${names} on this map.`,
        true,
      );
    } else if (pendingEnds.from)
      routePanel.show(`Route from ${nameOfId(pendingEnds.from)}: now pick where to.`, true);
    else if (pendingEnds.to)
      routePanel.show(`Route to ${nameOfId(pendingEnds.to)}: now pick where from.`, true);
    else routePanel.show('', false);
    const found = foundEntry();
    routePanel.setFound(map && found?.kind === 'room' ? { id: found.id, name: found.name } : undefined);
    canvas.dataset.route = route ? String(route.rooms.length) : '';
    requestDraw();
  }

  // ----- drawing -----
  function requestDraw(): void {
    if (frame !== undefined) return;
    frame = requestAnimationFrame(() => {
      frame = undefined;
      draw();
    });
  }

  function draw(): void {
    const vp = viewport();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(vp.width * dpr);
    const hh = Math.round(vp.height * dpr);
    if (canvas.width !== w || canvas.height !== hh) {
      canvas.width = w;
      canvas.height = hh;
    }
    const g = canvas.getContext('2d');
    if (!g) return;
    const started = performance.now();
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (!scene) {
      g.fillStyle = BACKGROUND;
      g.fillRect(0, 0, vp.width, vp.height);
      lastRender = undefined;
      setDrawn(undefined, undefined);
      return;
    }
    const v = clampCentre(view(), scene.bounds);
    const t = makeTransform(v, scene.bounds, vp);
    const hovered = hoveredRoom(t);
    lastRender = renderMap(g, scene, t, vp, {
      layers: state.layers,
      itemFilter: state.item,
      structureFilter: state.struct,
      hover: hovered,
      selection: foundTargets(),
      route: route ? routeOnFloor(route, state.floor) : undefined,
      avoid: [overMap(controls.viewActions)],
    });
    if (keyboardMode) drawCrosshair(g, vp.width / 2, vp.height / 2);
    setDrawn(lastRender, t);
    lastTransform = t;
    const now = performance.now();
    canvas.dataset.frameMs = (now - started).toFixed(1);
    if (pendingFirstDraw !== undefined) {
      // Time from the map answer's arrival to the first finished frame.
      canvas.dataset.drawMs = (now - pendingFirstDraw).toFixed(1);
      pendingFirstDraw = undefined;
    }
    updateInfo(t, hovered);
  }

  /** An element's box over the map, in the canvas's CSS pixels. */
  function overMap(el: HTMLElement): Box {
    const c = canvas.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    return { x0: r.left - c.left, y0: r.top - c.top, x1: r.right - c.left, y1: r.bottom - c.top };
  }

  /** What the frame drew, on the canvas's data-* attributes (read by tests and tools). */
  function setDrawn(r: RenderResult | undefined, t: Transform | undefined): void {
    const d = canvas.dataset;
    d.roomsDrawn = String(r?.rooms ?? 0);
    d.spawnsDrawn = String(r?.spawns ?? 0);
    d.doorsDrawn = String(r?.doors ?? 0);
    d.teslasDrawn = String(r?.teslas ?? 0);
    d.linksDrawn = String(r?.links ?? 0);
    d.labelsDrawn = String(r?.labels.length ?? 0);
    d.selected = String(r?.selected ?? 0);
    // Screen boxes (CSS px) of the labels and of the symbols they keep clear of.
    d.labelBoxes = JSON.stringify(r?.labels.map((l) => [l.text, ...boxText(l.box)]) ?? []);
    d.symbolBoxes = JSON.stringify(r?.symbols.map((s) => [s.kind, ...boxText(s.box)]) ?? []);
    if (scene && t) {
      const a = t.toScreen(scene.bounds.minX, scene.bounds.maxZ);
      const b = t.toScreen(scene.bounds.maxX, scene.bounds.minZ);
      const box = {
        x0: Math.min(a.sx, b.sx),
        y0: Math.min(a.sy, b.sy),
        x1: Math.max(a.sx, b.sx),
        y1: Math.max(a.sy, b.sy),
      };
      d.floorBox = boxText(box).join(',');
      d.turn = String(t.turn);
    } else delete d.floorBox;
    d.floor = state.floor;
    d.zoom = state.zoom.toFixed(2);
    d.seed = map ? String(map.seed) : '';
    d.find = state.find ?? '';
    d.drawCount = String(Number(d.drawCount ?? '0') + 1);
  }

  function hoverPoint(): { sx: number; sy: number } | undefined {
    if (!hover) return undefined;
    if (hover.kind === 'point') return hover;
    const vp = viewport();
    return { sx: vp.width / 2, sy: vp.height / 2 };
  }

  function hoveredRoom(t: Transform): Room | undefined {
    const p = hoverPoint();
    if (!p || !scene) return undefined;
    // A label may sit beside its room or be shortened: hovering it describes its room in full.
    const label = lastRender?.labels.find((l) => l.room && inBox(l.box, p.sx, p.sy));
    if (label?.room) return label.room;
    const w = t.toWorld(p.sx, p.sy);
    return roomAt(scene, w.x, w.z);
  }

  function elevatorAt(sx: number, sy: number): ElevatorTarget | undefined {
    return lastRender ? elevatorUnder(lastRender.elevators, sx, sy) : undefined;
  }

  function updateInfo(t: Transform, hovered: Room | undefined): void {
    const p = hoverPoint();
    const room = pinned ?? hovered;
    if ((!p && !pinned) || !scene || !map) {
      info.hidden = true;
      return;
    }
    const w = p ? t.toWorld(p.sx, p.sy) : undefined;
    const lines: InfoLine[] = [];
    if (p) {
      const elevator = elevatorAt(p.sx, p.sy);
      if (elevator)
        lines.push({ term: 'Elevator', detail: `to ${describeEnd(elevator.other)} (Enter or click)` });
      // Doors and spawns name the room they belong to, which may overhang the cell under the pointer.
      const door = nearest(lastRender?.doorMarks ?? [], p.sx, p.sy, 10)?.door;
      if (door) lines.push(doorInfo(door, nameOf(scene.extents.doorOwner.get(door))));
      const spawn = nearest(lastRender?.spawnMarks ?? [], p.sx, p.sy, 8)?.spawn;
      if (spawn) lines.push(spawnInfo(spawn, nameOf(scene.extents.spawnOwner.get(spawn))));
      if (!room && w)
        lines.push({
          term: 'World',
          detail: `x ${formatCoord(w.x)}, y ${formatCoord(scene.floorY)}, z ${formatCoord(w.z)}`,
        });
    }
    // Lines and card are redrawn only when they change: a card rebuilt under the pointer would close
    // its "Details" and drop the focus from its buttons.
    const linesKey = JSON.stringify(lines);
    if (infoLines.dataset.key !== linesKey) {
      const dl = h('dl', {});
      for (const l of lines) dl.append(h('dt', {}, l.term), h('dd', {}, l.detail));
      infoLines.replaceChildren(...(lines.length ? [dl] : []));
      infoLines.dataset.key = linesKey;
    }
    // A pinned card stays as it is; a hovered one follows the pointer's world position.
    const world = room && !pinned && room === hovered ? w : undefined;
    const cardKey = JSON.stringify([room && roomKey(room), !!pinned, world ? [world.x, world.z] : 0]);
    if (infoCard.dataset.key !== cardKey) {
      const open =
        !!room && infoCard.dataset.room === roomKey(room) && !!infoCard.querySelector('details')?.open;
      infoCard.replaceChildren();
      if (room) {
        const close = pinned ? unpin : undefined;
        const routeId = roomFindId(findIndex, room);
        infoCard.append(roomCard({ map, scene, room, routeId, world, route: setRouteEnd, close }));
      }
      if (open) infoCard.querySelector('details')?.setAttribute('open', '');
      infoCard.dataset.key = cardKey;
      infoCard.dataset.room = room ? roomKey(room) : '';
    }
    info.classList.toggle('pinned', !!pinned);
    info.hidden = !lines.length && !room;
    // Keep the panel away from the pointer: switch sides when the pointer is on the left.
    if (p && !pinned) info.classList.toggle('right', p.sx < viewport().width / 2);
  }

  function unpin(): void {
    pinned = undefined;
    canvas.focus({ preventScroll: true });
    requestDraw();
  }

  function nameOf(room: Room | undefined): string | undefined {
    return room && describeRoom(room, scene?.checkpointSplitZ);
  }

  function describeEnd(room: Room): string {
    const f = floorOfZone(room.zone) ?? floorOfHeight(room.y);
    const label = roomInfo(room, scene?.checkpointSplitZ)[0]?.detail ?? room.name;
    return f ? `${label}, ${floorName(f)}` : label;
  }

  function takeElevator(e: ElevatorTarget): void {
    const f = floorOfZone(e.other.zone) ?? floorOfHeight(e.other.y);
    if (!f) return;
    state = { ...state, floor: f, cx: e.other.x, cz: e.other.z, zoom: Math.max(state.zoom, 1) };
    // Show where the elevator arrives: its room's card stays open and the room is outlined.
    hover = { kind: 'centre' };
    pinned = e.other;
    rebuildScene();
    writeUrl(true);
  }

  // ----- data -----
  function rebuildScene(): void {
    scene = map ? buildScene(map, state.floor) : undefined;
    // A card describes its room with this floor's spawns and doors: another floor's room closes it.
    if (pinned && !scene?.rooms.includes(pinned)) pinned = undefined;
    controls.sync(state);
    find.showChosen(foundEntry());
    updateRoute();
    canvas.setAttribute(
      'aria-label',
      map ? `Map of seed ${map.seed}, ${floorName(state.floor)}` : 'Facility map (no seed loaded)',
    );
    document.title = map ? `Seed ${map.seed} · ${floorName(state.floor)} – seedblock` : 'Map – seedblock';
    // The layout's name where the map has one: "Seed 5 · LCZ layout 4", else the floor's short name.
    const where = map ? floorLayouts(map, state.floor).join(' · ') || floorById(state.floor).short : '';
    caption.textContent = map ? `Seed ${map.seed} · ${where}` : '';
    caption.hidden = !map;
    if (map) summary.replaceChildren(...mapSummary(map, state.floor).map((line) => h('p', {}, line)));
    else summary.replaceChildren();
    updateMatches();
    requestDraw();
  }

  function updateMatches(): void {
    controls.matches.replaceChildren();
    if (!map) return;
    const parts: [string, (s: Spawn) => boolean][] = [];
    if (state.item !== ALL) parts.push(['items', (s) => itemMatches(s, state.item)]);
    if (state.struct !== ALL) parts.push(['structures', (s) => structureMatches(s, state.struct)]);
    for (const [what, test] of parts) {
      const per = matchesPerFloor(map.spawns, test);
      const line = h('span', {}, `Matching ${what}: `);
      FLOORS.forEach((f, i) => {
        const b = h(
          'button',
          { type: 'button', class: 'link', 'data-floor': f.id },
          `${f.label} ${per[f.id]}`,
        );
        b.addEventListener('click', () => showFloor(f.id));
        line.append(i ? ' · ' : '', b);
      });
      controls.matches.append(line, ' ');
    }
  }

  function showFloor(floor: MapState['floor']): void {
    state = { ...state, floor, cx: undefined, cz: undefined, zoom: 1 };
    rebuildScene();
    writeUrl(true);
  }

  function onLoadState(s: LoadState): void {
    main.dataset.state = s.state;
    const seed = state.seed.kind === 'valid' ? state.seed.seed : undefined;
    status.show(seed, s);
    if (s.state === 'invalid') {
      controls.setSeedError(`The server refused this seed: ${s.message}.`);
      setPanel(true);
    }
    if (s.state !== 'ready') return;
    map = s.map;
    findIndex = buildFindIndex(map);
    routeGraph = buildRouteGraph(map);
    find.setIndex(findIndex);
    controls.setMapReady(true);
    controls.setFilterOptions(itemOptions(map.spawns), structureOptions(map.spawns), state);
    void markOldest(map.seed);
    pendingFirstDraw = s.perfTime;
    rebuildScene();
    // A shared link naming something found but no view: open on what it names.
    const t = foundTargets();
    if (t && scene && (state.cx === undefined || state.cz === undefined)) {
      state = { ...state, ...viewOn(t, scene.bounds) };
    }
    // Draw at once rather than on the next frame: the first picture is what the user waits for.
    if (frame !== undefined) cancelAnimationFrame(frame);
    frame = undefined;
    draw();
  }

  function startLoad(): void {
    load?.cancel();
    load = undefined;
    map = undefined;
    scene = undefined;
    findIndex = [];
    routeGraph = undefined;
    pinned = undefined;
    find.setIndex(undefined);
    controls.setMapReady(false);
    controls.setOldest(false);
    controls.setFilterOptions(itemOptions([]), structureOptions([]), state);
    rebuildScene();
    const seed = state.seed;
    loadedSeed = seed.kind === 'valid' ? seed.seed : undefined;
    if (seed.kind === 'none') {
      main.dataset.state = 'idle';
      status.show(undefined, { state: 'idle' });
      controls.setSeedError(undefined);
      setPanel(true);
      return;
    }
    if (seed.kind === 'invalid') {
      main.dataset.state = 'invalid';
      status.show(undefined, { state: 'invalid', message: 'invalid seed' });
      controls.setSeedError('A seed is a whole number from 1 to 2147483647.');
      setPanel(true);
      return;
    }
    controls.setSeedError(undefined);
    load = loadMap(
      seed.seed,
      {
        fetch: ctx.fetcher,
        now: Date.now,
        setTimer: (fn, ms) => window.setTimeout(fn, ms),
        clearTimer: (t) => window.clearTimeout(t as number),
      },
      onLoadState,
    );
  }

  // ----- input -----
  const detach = attachInteraction(canvas, {
    pan(dx, dy) {
      if (!scene) return;
      setView(panBy(clampCentre(view(), scene.bounds), scene.bounds, viewport(), dx, dy));
    },
    zoom(factor, sx, sy) {
      if (!scene) return;
      setView(zoomAt(clampCentre(view(), scene.bounds), scene.bounds, viewport(), factor, sx, sy));
    },
    reset: resetView,
    hover(sx, sy) {
      hover = { kind: 'point', sx, sy };
      canvas.classList.toggle('over-elevator', !!elevatorAt(sx, sy));
      requestDraw();
    },
    leave() {
      if (hover?.kind === 'point') hover = undefined;
      requestDraw();
    },
    tap(sx, sy) {
      const e = elevatorAt(sx, sy);
      if (e) return takeElevator(e);
      hover = { kind: 'point', sx, sy };
      // A tap opens the room's card for good (its buttons can then be reached); empty map closes it.
      pinned = lastTransform ? hoveredRoom(lastTransform) : undefined;
      requestDraw();
    },
    keyboard(active) {
      keyboardMode = active;
      if (active) hover = { kind: 'centre' };
      else if (hover?.kind === 'centre') hover = undefined;
      requestDraw();
    },
    activate() {
      const vp = viewport();
      const e = elevatorAt(vp.width / 2, vp.height / 2);
      if (e) return takeElevator(e);
      // Enter opens the card of the room under the crosshair for good (Tab then reaches its buttons).
      hover = { kind: 'centre' };
      pinned = lastTransform ? hoveredRoom(lastTransform) : undefined;
      requestDraw();
    },
    settle: () => writeUrl(false),
  });

  const shortcuts = attachShortcuts(main, {
    find() {
      if (narrow.matches) setPanel(false);
      find.input.focus();
    },
    step: (step) => void stepSeed(step),
    floor(n) {
      const f = FLOORS[n];
      if (f && map) showFloor(f.id);
    },
    zoomIn: () => zoomCentre(ZOOM_STEP),
    zoomOut: () => zoomCentre(1 / ZOOM_STEP),
    fit: resetView,
  });

  const detachPrint = attachPrintMap(area, () =>
    map && scene ? floorPictureOf(map.seed, scene) : undefined,
  );
  const resize = new ResizeObserver(() => requestDraw());
  resize.observe(canvas);

  startLoad();

  return {
    update(nextPath, nextSearch) {
      const next = parseMapState(nextPath, nextSearch);
      const sameSeed = JSON.stringify(next.seed) === JSON.stringify(state.seed);
      const floorChanged = next.floor !== state.floor;
      state = next;
      controls.sync(state);
      if (!sameSeed) return startLoad();
      if (map) controls.setFilterOptions(itemOptions(map.spawns), structureOptions(map.spawns), state);
      if (floorChanged) rebuildScene();
      else {
        find.showChosen(foundEntry());
        updateRoute();
        updateMatches();
        requestDraw();
      }
    },
    unmount() {
      load?.cancel();
      status.dispose();
      detach();
      shortcuts.detach();
      detachPrint();
      resize.disconnect();
      narrow.removeEventListener('change', arrange);
      window.clearTimeout(urlTimer);
      if (frame !== undefined) cancelAnimationFrame(frame);
    },
  };
}
