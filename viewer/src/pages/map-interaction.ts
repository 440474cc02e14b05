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

export function attachInteraction(canvas: HTMLCanvasElement, on: InteractionHandlers): () => void {
  const pointers = new Map<number, { x: number; y: number }>();
  let dragged = 0;
  let pinchDist = 0;

  const local = (e: { clientX: number; clientY: number }): { x: number; y: number } => {
    const r = canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const spread = (): { mid: { x: number; y: number }; dist: number } => {
    const [a, b] = [...pointers.values()];
    if (!a || !b) return { mid: a ?? { x: 0, y: 0 }, dist: 0 };
    return { mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, dist: Math.hypot(a.x - b.x, a.y - b.y) };
  };

  const onDown = (e: PointerEvent): void => {
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    canvas.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, local(e));
    if (pointers.size === 1) dragged = 0;
    if (pointers.size === 2) pinchDist = spread().dist;
    on.keyboard(false);
  };

  const onMove = (e: PointerEvent): void => {
    const p = local(e);
    const prev = pointers.get(e.pointerId);
    if (!prev) {
      if (e.pointerType === 'mouse') on.hover(p.x, p.y);
      return;
    }
    if (pointers.size === 1) {
      const dx = p.x - prev.x;
      const dy = p.y - prev.y;
      dragged += Math.abs(dx) + Math.abs(dy);
      pointers.set(e.pointerId, p);
      if (dragged > TAP_SLOP_PX) on.pan(dx, dy);
      return;
    }
    const before = spread();
    pointers.set(e.pointerId, p);
    const after = spread();
    dragged += TAP_SLOP_PX + 1;
    on.pan(after.mid.x - before.mid.x, after.mid.y - before.mid.y);
    if (pinchDist > 0 && after.dist > 0) on.zoom(after.dist / pinchDist, after.mid.x, after.mid.y);
    pinchDist = after.dist;
  };

  const onUp = (e: PointerEvent): void => {
    if (!pointers.has(e.pointerId)) return;
    const p = local(e);
    pointers.delete(e.pointerId);
    if (pointers.size === 0) {
      if (dragged <= TAP_SLOP_PX) on.tap(p.x, p.y);
      else on.settle();
    }
    if (pointers.size === 1) pinchDist = 0;
  };

  const onCancel = (e: PointerEvent): void => {
    pointers.delete(e.pointerId);
    if (pointers.size === 0) on.settle();
  };

  let wheelSettle: number | undefined;
  const onWheel = (e: WheelEvent): void => {
    e.preventDefault();
    const p = local(e);
    // Trackpads send many small deltas, mouse wheels few large ones; both map smoothly.
    const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
    on.zoom(Math.exp(-delta * 0.0015), p.x, p.y);
    window.clearTimeout(wheelSettle);
    wheelSettle = window.setTimeout(() => on.settle(), 250);
  };

  const onKey = (e: KeyboardEvent): void => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const step = e.shiftKey ? KEY_PAN_PX * 4 : KEY_PAN_PX;
    const cx = canvas.clientWidth / 2;
    const cy = canvas.clientHeight / 2;
    let handled = true;
    switch (e.key) {
      case 'ArrowLeft':
        on.pan(step, 0);
        break;
      case 'ArrowRight':
        on.pan(-step, 0);
        break;
      case 'ArrowUp':
        on.pan(0, step);
        break;
      case 'ArrowDown':
        on.pan(0, -step);
        break;
      case '+':
      case '=':
        on.zoom(KEY_ZOOM, cx, cy);
        break;
      case '-':
      case '_':
        on.zoom(1 / KEY_ZOOM, cx, cy);
        break;
      case '0':
      case 'Home':
        on.reset();
        break;
      case 'Enter':
      case ' ':
        on.activate();
        break;
      default:
        handled = false;
    }
    if (handled) {
      e.preventDefault();
      on.keyboard(true);
      on.settle();
    }
  };

  // Touch pointers also "leave" right after every tap; only a mouse leaving clears the info.
  const onLeave = (e: PointerEvent): void => {
    if (e.pointerType === 'mouse' && pointers.size === 0) on.leave();
  };
  const onBlur = (): void => on.keyboard(false);

  canvas.addEventListener('pointerdown', onDown);
  canvas.addEventListener('pointermove', onMove);
  canvas.addEventListener('pointerup', onUp);
  canvas.addEventListener('pointercancel', onCancel);
  canvas.addEventListener('pointerleave', onLeave);
  canvas.addEventListener('wheel', onWheel, { passive: false });
  canvas.addEventListener('keydown', onKey);
  canvas.addEventListener('blur', onBlur);
  return () => {
    window.clearTimeout(wheelSettle);
    canvas.removeEventListener('pointerdown', onDown);
    canvas.removeEventListener('pointermove', onMove);
    canvas.removeEventListener('pointerup', onUp);
    canvas.removeEventListener('pointercancel', onCancel);
    canvas.removeEventListener('pointerleave', onLeave);
    canvas.removeEventListener('wheel', onWheel);
    canvas.removeEventListener('keydown', onKey);
    canvas.removeEventListener('blur', onBlur);
  };
}
