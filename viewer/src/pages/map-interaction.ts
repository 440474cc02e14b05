// Pan and zoom input for the map canvas: mouse drag and wheel, touch drag and pinch (pointer
// events), and keyboard (arrows, + and -, 0 to reset, Enter to take an elevator).

export interface InteractionHandlers {
  pan(dx: number, dy: number): void;
  zoom(factor: number, sx: number, sy: number): void;
  reset(): void;
  /** Pointer over a canvas point, or undefined when it left. */
  hover(sx: number, sy: number): void;
  leave(): void;
  /** Click or tap without a drag. */
  tap(sx: number, sy: number): void;
  /** Keyboard use started (true) or the pointer took over again (false). */
  keyboard(active: boolean): void;
  /** Enter or Space on the keyboard crosshair. */
  activate(): void;
  /** Pan or zoom gesture finished: a good moment to write the URL. */
  settle(): void;
}

const KEY_PAN_PX = 60;
const KEY_ZOOM = 1.25;
const TAP_SLOP_PX = 6;

type Point = { x: number; y: number };
type Listeners = { [K in keyof HTMLElementEventMap]?: (e: HTMLElementEventMap[K]) => void };

/** Adds `listeners` to `el`; returns what removes them. */
function listen(el: HTMLElement, listeners: Listeners, options?: AddEventListenerOptions): () => void {
  const all = Object.entries(listeners) as [string, EventListener][];
  for (const [type, fn] of all) el.addEventListener(type, fn, options);
  return () => {
    for (const [type, fn] of all) el.removeEventListener(type, fn);
  };
}

/** The canvas point of a pointer or wheel event. */
function localTo(canvas: HTMLCanvasElement, e: { clientX: number; clientY: number }): Point {
  const r = canvas.getBoundingClientRect();
  return { x: e.clientX - r.left, y: e.clientY - r.top };
}

/** Drag to pan, two fingers to pan and pinch to zoom, a tap without a drag; a mouse also hovers. */
function pointerGestures(canvas: HTMLCanvasElement, on: InteractionHandlers): Listeners {
  const pointers = new Map<number, Point>();
  let dragged = 0;
  let pinchDist = 0;
  const spread = (): { mid: Point; dist: number } => {
    const [a, b] = [...pointers.values()];
    if (!a || !b) return { mid: a ?? { x: 0, y: 0 }, dist: 0 };
    return { mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, dist: Math.hypot(a.x - b.x, a.y - b.y) };
  };
  const pinch = (id: number, p: Point): void => {
    const before = spread();
    pointers.set(id, p);
    const after = spread();
    dragged += TAP_SLOP_PX + 1;
    on.pan(after.mid.x - before.mid.x, after.mid.y - before.mid.y);
    if (pinchDist > 0 && after.dist > 0) on.zoom(after.dist / pinchDist, after.mid.x, after.mid.y);
    pinchDist = after.dist;
  };
  return {
    pointerdown(e) {
      if (e.button !== 0 && e.pointerType === 'mouse') return;
      canvas.setPointerCapture(e.pointerId);
      pointers.set(e.pointerId, localTo(canvas, e));
      if (pointers.size === 1) dragged = 0;
      if (pointers.size === 2) pinchDist = spread().dist;
      on.keyboard(false);
    },
    pointermove(e) {
      const p = localTo(canvas, e);
      const prev = pointers.get(e.pointerId);
      if (!prev) {
        if (e.pointerType === 'mouse') on.hover(p.x, p.y);
        return;
      }
      if (pointers.size !== 1) return pinch(e.pointerId, p);
      const dx = p.x - prev.x;
      const dy = p.y - prev.y;
      dragged += Math.abs(dx) + Math.abs(dy);
      pointers.set(e.pointerId, p);
      if (dragged > TAP_SLOP_PX) on.pan(dx, dy);
    },
    pointerup(e) {
      if (!pointers.has(e.pointerId)) return;
      const p = localTo(canvas, e);
      pointers.delete(e.pointerId);
      if (pointers.size === 0) {
        if (dragged <= TAP_SLOP_PX) on.tap(p.x, p.y);
        else on.settle();
      }
      if (pointers.size === 1) pinchDist = 0;
    },
    pointercancel(e) {
      pointers.delete(e.pointerId);
      if (pointers.size === 0) on.settle();
    },
    // Touch pointers also "leave" right after every tap; only a mouse leaving clears the info.
    pointerleave(e) {
      if (e.pointerType === 'mouse' && pointers.size === 0) on.leave();
    },
  };
}

/** Wheel zoom at the pointer; the gesture settles a moment after the last turn. Returns the detach. */
function attachWheelZoom(canvas: HTMLCanvasElement, on: InteractionHandlers): () => void {
  let wheelSettle: number | undefined;
  const detach = listen(
    canvas,
    {
      wheel(e) {
        e.preventDefault();
        const p = localTo(canvas, e);
        // Trackpads send many small deltas, mouse wheels few large ones; both map smoothly.
        const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
        on.zoom(Math.exp(-delta * 0.0015), p.x, p.y);
        window.clearTimeout(wheelSettle);
        wheelSettle = window.setTimeout(() => on.settle(), 250);
      },
    },
    { passive: false },
  );
  return () => {
    window.clearTimeout(wheelSettle);
    detach();
  };
}

type KeyAction = (on: InteractionHandlers, step: number, centre: Point) => void;
const zoomIn: KeyAction = (on, _step, c) => on.zoom(KEY_ZOOM, c.x, c.y);
const zoomOut: KeyAction = (on, _step, c) => on.zoom(1 / KEY_ZOOM, c.x, c.y);
const fit: KeyAction = (on) => on.reset();
const activate: KeyAction = (on) => on.activate();

/** What each key does on the map: `step` is how far an arrow pans. */
const KEYS: Readonly<Record<string, KeyAction>> = {
  ArrowLeft: (on, step) => on.pan(step, 0),
  ArrowRight: (on, step) => on.pan(-step, 0),
  ArrowUp: (on, step) => on.pan(0, step),
  ArrowDown: (on, step) => on.pan(0, -step),
  '+': zoomIn,
  '=': zoomIn,
  '-': zoomOut,
  _: zoomOut,
  '0': fit,
  Home: fit,
  Enter: activate,
  ' ': activate,
};

/** Arrows pan (Shift: further), + and - zoom, 0 fits, Enter activates; leaving ends keyboard use. */
function keyboardInput(canvas: HTMLCanvasElement, on: InteractionHandlers): Listeners {
  return {
    keydown(e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const step = e.shiftKey ? KEY_PAN_PX * 4 : KEY_PAN_PX;
      const action = Object.hasOwn(KEYS, e.key) ? KEYS[e.key] : undefined;
      if (!action) return;
      action(on, step, { x: canvas.clientWidth / 2, y: canvas.clientHeight / 2 });
      e.preventDefault();
      on.keyboard(true);
      on.settle();
    },
    blur: () => on.keyboard(false),
  };
}

/** Attaches the map's input to `canvas`; returns the detach function. */
export function attachInteraction(canvas: HTMLCanvasElement, on: InteractionHandlers): () => void {
  const detach = [
    listen(canvas, pointerGestures(canvas, on)),
    attachWheelZoom(canvas, on),
    listen(canvas, keyboardInput(canvas, on)),
  ];
  return () => {
    for (const d of detach) d();
  };
}
