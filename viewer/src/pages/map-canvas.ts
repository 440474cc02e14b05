import type { Room } from '../../../renderer/map-types.ts';
import { h } from '../dom.ts';
import { contains, spanning } from '../../../renderer/box.ts';
import type { Box } from '../../../renderer/box.ts';
import { elevatorUnder } from '../map/hit-test.ts';
import { BACKGROUND } from '../../../renderer/palette.ts';
import { renderMap } from '../../../renderer/render-map.ts';
import type { ElevatorTarget, MapLayer, RenderResult } from '../../../renderer/render-map.ts';
import { routeOnFloor } from '../map/route-ends.ts';
import type { Route } from '../map/route-ends.ts';
import { roomAt } from '../../../renderer/scene.ts';
import type { FloorScene } from '../../../renderer/scene.ts';
import { drawCrosshair } from '../../../renderer/symbols.ts';
import { boundsCentre, clampCentre, makeTransform } from '../../../renderer/view-transform.ts';
import type { Transform, View, Viewport } from '../../../renderer/view-transform.ts';
import type { MapStore } from './map-store.ts';
import { testHooksOn } from './test-hooks.ts';

// The map canvas: it owns the redraw (Leaflet's Canvas renderer). Any commit asks for one frame;
// the frame draws the store's state and keeps what it drew for hover and tap lookups.

export interface MapCanvas {
  el: HTMLCanvasElement;
  viewport(): Viewport;
  /** The view the state names, centred on the floor where it names none. */
  view(): View;
  requestDraw(): void;
  /** Draw now (the first picture of a map is what the reader waits for). */
  drawNow(): void;
  /** What the last frame drew and how. */
  last(): { render: RenderResult; t: Transform } | undefined;
  roomAtPoint(sx: number, sy: number): Room | undefined;
  elevatorAt(sx: number, sy: number): ElevatorTarget | undefined;
  /** Layers drawn above the built-in symbols (wired by other features, e.g. Surface's places). */
  addLayer(layer: MapLayer): void;
  /** Times the next frame from `since` (performance.now() of the map answer's arrival). */
  timeFirstDraw(since: number): void;
  dispose(): void;
}

export interface CanvasDeps {
  store: MapStore;
  /** The route to draw, if any. */
  route(): Route | undefined;
  /** Screen boxes (CSS px of the canvas) no label may slide under. */
  avoid(): Box[];
  /** Called after every frame (the info panel follows the pointer). */
  drawn(t: Transform | undefined, r: RenderResult | undefined): void;
}

const boxText = (b: Box): number[] => [b.x0, b.y0, b.x1, b.y1].map((n) => Math.round(n * 10) / 10);

/** What the frame drew, on the canvas's data-* attributes (only with test hooks on). */
function writeHooks(
  el: HTMLCanvasElement,
  store: MapStore,
  r: RenderResult | undefined,
  t?: Transform,
): void {
  const d = el.dataset;
  const scene = store.scene();
  const { state, map } = store.model;
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

export function createMapCanvas(deps: CanvasDeps): MapCanvas {
  const { store } = deps;
  const el = h('canvas', {
    id: 'map-canvas',
    class: 'map-canvas',
    tabindex: 0,
    role: 'img',
    'aria-roledescription': 'interactive map',
    'aria-describedby': 'map-summary map-keys',
    'aria-label': 'Facility map',
  });
  let frame: number | undefined;
  let last: { render: RenderResult; t: Transform } | undefined;
  let firstDrawSince: number | undefined;
  const extra: MapLayer[] = [];

  const viewport = (): Viewport => ({ width: el.clientWidth || 1, height: el.clientHeight || 1 });
  const view = (): View => {
    const scene = store.scene();
    const c = scene ? boundsCentre(scene.bounds) : { cx: 0, cz: 0 };
    const { cx, cz, zoom } = store.model.state;
    return { cx: cx ?? c.cx, cz: cz ?? c.cz, zoom };
  };

  function hoveredRoom(scene: FloorScene, t: Transform): Room | undefined {
    const hover = store.model.hover;
    if (!hover) return undefined;
    const vp = viewport();
    const p = hover.kind === 'point' ? hover : { sx: vp.width / 2, sy: vp.height / 2 };
    return roomUnder(scene, t, p.sx, p.sy);
  }

  function roomUnder(scene: FloorScene, t: Transform, sx: number, sy: number): Room | undefined {
    // A label may sit beside its room or be shortened: pointing at it means its room.
    const label = last?.render.labels.find((l) => l.room && contains(l.box, sx, sy));
    if (label?.room) return label.room;
    const w = t.toWorld(sx, sy);
    return roomAt(scene, w.x, w.z);
  }

  function sizeTo(vp: Viewport): CanvasRenderingContext2D | null {
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

  function draw(): void {
    const vp = viewport();
    const g = sizeTo(vp);
    if (!g) return;
    const scene = store.scene();
    if (!scene) {
      g.fillStyle = BACKGROUND;
      g.fillRect(0, 0, vp.width, vp.height);
      last = undefined;
      if (testHooksOn()) writeHooks(el, store, undefined);
      deps.drawn(undefined, undefined);
      return;
    }
    const { state, keyboard } = store.model;
    const t = makeTransform(clampCentre(view(), scene.bounds), scene.bounds, vp);
    const route = deps.route();
    const render = renderMap(g, scene, t, vp, {
      layers: state.layers,
      itemFilter: state.item,
      structureFilter: state.struct,
      hover: hoveredRoom(scene, t),
      selection: store.foundTargets(),
      route: route ? routeOnFloor(route, state.floor) : undefined,
      avoid: deps.avoid(),
      extra,
    });
    if (keyboard) drawCrosshair(g, vp.width / 2, vp.height / 2);
    last = { render, t };
    if (testHooksOn()) {
      writeHooks(el, store, render, t);
      // Time from the map answer's arrival to the first finished frame.
      if (firstDrawSince !== undefined) el.dataset.drawMs = (performance.now() - firstDrawSince).toFixed(1);
    }
    firstDrawSince = undefined;
    deps.drawn(t, render);
  }

  const canvas: MapCanvas = {
    el,
    viewport,
    view,
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
    last: () => last,
    roomAtPoint(sx, sy) {
      const scene = store.scene();
      return scene && last ? roomUnder(scene, last.t, sx, sy) : undefined;
    },
    elevatorAt: (sx, sy) => (last ? elevatorUnder(last.render.elevators, sx, sy) : undefined),
    addLayer(layer) {
      extra.push(layer);
      canvas.requestDraw();
    },
    timeFirstDraw(since) {
      firstDrawSince = since;
    },
    dispose() {
      if (frame !== undefined) cancelAnimationFrame(frame);
    },
  };
  return canvas;
}
