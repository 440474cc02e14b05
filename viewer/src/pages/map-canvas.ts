import type { Door, Room, Spawn } from '../../../renderer/map-types.ts';
import { h } from '../dom.ts';
import { spanning } from '../../../renderer/box.ts';
import type { Box } from '../../../renderer/box.ts';
import { BACKGROUND } from '../../../renderer/palette.ts';
import { mapLayers, renderMap } from '../../../renderer/render-map.ts';
import type { ElevatorTarget, MapLayers, SymbolMark } from '../../../renderer/render-map.ts';
import { routeOnFloor } from '../map/route-ends.ts';
import { roomAt } from '../../../renderer/scene.ts';
import type { FloorScene } from '../../../renderer/scene.ts';
import { drawCrosshair } from '../../../renderer/symbols.ts';
import { boundsCentre, clampCentre, makeTransform } from '../../../renderer/view-transform.ts';
import type { Transform, View, Viewport } from '../../../renderer/view-transform.ts';
import type { MapStore } from './map-store.ts';
import { testHooksOn } from './test-hooks.ts';

// The map canvas: it owns the redraw (Leaflet's Canvas renderer). It follows the store (any commit
// asks for one frame), draws the store's state with its own set of layers, each of which keeps what
// it drew and answers the hit tests, and tells the parts that follow its frames (the info panel,
// the north marker) after each one.

export interface MapCanvas {
  el: HTMLCanvasElement;
  viewport(): Viewport;
  /** The view the state names, centred on the floor where it names none. */
  view(): View;
  requestDraw(): void;
  /** Draw now (the first picture of a map is what the reader waits for). */
  drawNow(): void;
  /** The room under a point of the last frame: its label's room, else the room drawn there. */
  roomAtPoint(sx: number, sy: number): Room | undefined;
  elevatorAt(sx: number, sy: number): ElevatorTarget | undefined;
  doorAt(sx: number, sy: number): Door | undefined;
  spawnAt(sx: number, sy: number): Spawn | undefined;
  /** Keeps labels from sliding under `el`, a part laid over the map (zoom buttons, north marker). */
  keepClear(el: HTMLElement): void;
  /** Calls `fn` after every frame with its transform (undefined: no map drawn); returns the unsubscribe. */
  onFrame(fn: (t: Transform | undefined) => void): () => void;
  /** Times the next frame from `since` (performance.now() of the map answer's arrival). */
  timeFirstDraw(since: number): void;
  dispose(): void;
}

/** What the last frame drew: its scene and transform, and the symbols its labels kept clear of. */
interface Drawn {
  scene: FloorScene;
  t: Transform;
  symbols: readonly SymbolMark[];
}

const boxText = (b: Box): number[] => [b.x0, b.y0, b.x1, b.y1].map((n) => Math.round(n * 10) / 10);

/** What the frame drew, on the canvas's data-* attributes (only with test hooks on). */
function writeHooks(
  el: HTMLCanvasElement,
  store: MapStore,
  layers: MapLayers,
  drawn: Drawn | undefined,
): void {
  const d = el.dataset;
  const { state, map } = store.model;
  const count = (n: () => number): string => String(drawn ? n() : 0);
  d.roomsDrawn = count(layers.rooms.drawn);
  d.spawnsDrawn = count(layers.spawns.drawn);
  d.doorsDrawn = count(layers.doors.drawn);
  d.teslasDrawn = count(layers.teslas.drawn);
  d.linksDrawn = count(layers.links.drawn);
  d.labelsDrawn = count(layers.labels.drawn);
  d.selected = count(() => layers.highlight.drawn() + layers.spawns.found());
  // Screen boxes (CSS px) of the labels and of the symbols they keep clear of.
  d.labelBoxes = JSON.stringify(drawn ? layers.labels.marks().map((l) => [l.text, ...boxText(l.box)]) : []);
  d.symbolBoxes = JSON.stringify(drawn?.symbols.map((s) => [s.kind, ...boxText(s.box)]) ?? []);
  if (drawn) {
    const { scene, t } = drawn;
    const a = t.toScreen(scene.bounds.x0, scene.bounds.y1);
    const b = t.toScreen(scene.bounds.x1, scene.bounds.y0);
    d.floorBox = boxText(spanning(a.sx, a.sy, b.sx, b.sy)).join(',');
    d.turn = String(t.turn);
  } else delete d.floorBox;
  d.floor = state.floor;
  d.zoom = state.zoom.toFixed(2);
  d.seed = map ? String(map.seed) : '';
  d.find = state.find ?? '';
  d.drawCount = String(Number(d.drawCount ?? '0') + 1);
}

/** The canvas's context sized to the viewport on this screen, scaled to CSS pixels. */
function sizeTo(el: HTMLCanvasElement, vp: Viewport): CanvasRenderingContext2D | null {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.round(vp.width * dpr);
  const hh = Math.round(vp.height * dpr);
  if (el.width !== w || el.height !== hh) {
    el.width = w;
    el.height = hh;
  }
  const g = el.getContext('2d');
  g?.setTransform(dpr, 0, 0, dpr, 0, 0);
  return g;
}

/** An element's box over the map, in the canvas's CSS pixels. */
function overMap(canvas: HTMLElement, el: HTMLElement): Box {
  const c = canvas.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  return { x0: r.left - c.left, y0: r.top - c.top, x1: r.right - c.left, y1: r.bottom - c.top };
}

/** What one canvas draws with: its element, the store it shows, its layers, the parts over it. */
interface Painter {
  el: HTMLCanvasElement;
  store: MapStore;
  layers: MapLayers;
  /** Parts laid over the map that labels keep clear of. */
  clear: HTMLElement[];
}

const viewportOf = (el: HTMLElement): Viewport => ({
  width: el.clientWidth || 1,
  height: el.clientHeight || 1,
});

/** The view the state names, centred on the floor where it names none. */
function viewOf(store: MapStore): View {
  const scene = store.scene();
  const c = scene ? boundsCentre(scene.bounds) : { cx: 0, cz: 0 };
  const { cx, cz, zoom } = store.model.state;
  return { cx: cx ?? c.cx, cz: cz ?? c.cz, zoom };
}

/**
 * The room under a point: the room of a label there (`labelled`: the last frame drew labels),
 * else the room drawn there.
 */
function roomUnder(
  p: Painter,
  labelled: boolean,
  scene: FloorScene,
  t: Transform,
  sx: number,
  sy: number,
): Room | undefined {
  // A label may sit beside its room or be shortened: pointing at it means its room.
  const w = t.toWorld(sx, sy);
  return (labelled ? p.layers.labels.roomAt(sx, sy) : undefined) ?? roomAt(scene, w.x, w.z);
}

/** Draws the shown scene as the store's state says; the hovered room is found with `last`'s labels. */
function drawScene(
  p: Painter,
  g: CanvasRenderingContext2D,
  scene: FloorScene,
  vp: Viewport,
  last: Drawn | undefined,
): Drawn {
  const { state, keyboard, routed, hover } = p.store.model;
  const t = makeTransform(clampCentre(viewOf(p.store), scene.bounds), scene.bounds, vp);
  // The room the pointer or the keyboard crosshair is on.
  const at = hover?.kind === 'point' ? hover : { sx: vp.width / 2, sy: vp.height / 2 };
  const options = {
    layers: state.layers,
    itemFilter: state.item,
    structureFilter: state.struct,
    hover: hover ? roomUnder(p, !!last, scene, t, at.sx, at.sy) : undefined,
    selection: p.store.foundTargets(),
    route: routed.route ? routeOnFloor(routed.route, state.floor) : undefined,
    avoid: p.clear.map((c) => overMap(p.el, c)),
  };
  const symbols = renderMap(g, scene, t, vp, options, p.layers);
  if (keyboard) drawCrosshair(g, vp.width / 2, vp.height / 2);
  return { scene, t, symbols };
}

export function createMapCanvas(store: MapStore): MapCanvas {
  const el = h('canvas', {
    id: 'map-canvas',
    class: 'map-canvas',
    tabindex: 0,
    role: 'img',
    'aria-roledescription': 'interactive map',
    'aria-describedby': 'map-summary map-keys',
    'aria-label': 'Facility map',
  });
  const p: Painter = { el, store, layers: mapLayers(), clear: [] };
  const { layers } = p;
  const frames = new Set<(t: Transform | undefined) => void>();
  let frame: number | undefined;
  let last: Drawn | undefined;
  let firstDrawSince: number | undefined;

  function draw(): void {
    const vp = viewportOf(el);
    const g = sizeTo(el, vp);
    if (!g) return;
    const scene = store.scene();
    if (scene) last = drawScene(p, g, scene, vp, last);
    else {
      g.fillStyle = BACKGROUND;
      g.fillRect(0, 0, vp.width, vp.height);
      last = undefined;
    }
    if (testHooksOn()) {
      writeHooks(el, store, layers, last);
      // Time from the map answer's arrival to the first finished frame.
      if (last && firstDrawSince !== undefined)
        el.dataset.drawMs = (performance.now() - firstDrawSince).toFixed(1);
    }
    if (last) firstDrawSince = undefined;
    for (const fn of [...frames]) fn(last?.t);
  }

  const canvas: MapCanvas = {
    el,
    viewport: () => viewportOf(el),
    view: () => viewOf(store),
    requestDraw() {
      if (frame !== undefined) return;
      frame = requestAnimationFrame(() => {
        frame = undefined;
        draw();
      });
    },
    drawNow() {
      if (frame !== undefined) cancelAnimationFrame(frame);
      frame = undefined;
      draw();
    },
    roomAtPoint(sx, sy) {
      const scene = store.scene();
      return scene && last ? roomUnder(p, true, scene, last.t, sx, sy) : undefined;
    },
    elevatorAt: (sx, sy) => (last ? layers.elevators.elevatorAt(sx, sy) : undefined),
    doorAt: (sx, sy) => (last ? layers.doors.doorAt(sx, sy) : undefined),
    spawnAt: (sx, sy) => (last ? layers.spawns.spawnAt(sx, sy) : undefined),
    keepClear: (part) => void p.clear.push(part),
    onFrame(fn) {
      frames.add(fn);
      return () => frames.delete(fn);
    },
    timeFirstDraw(since) {
      firstDrawSince = since;
    },
    dispose() {
      if (frame !== undefined) cancelAnimationFrame(frame);
      frames.clear();
    },
  };
  store.subscribe(() => canvas.requestDraw());
  // The route drawn, as the route panel says it (test hooks).
  store.follow(['routed'], ({ routed }) => {
    if (testHooksOn()) el.dataset.route = routed.route ? String(routed.route.rooms.length) : '';
  });
  return canvas;
}
