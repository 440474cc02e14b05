import { h } from '../dom.ts';
import type { MapCanvas } from './map-canvas.ts';

// Which way is north on the map: phone and desktop players share directions by it, and a phone
// held upright shows a wide floor turned a quarter (north to the right). It follows the canvas's
// frames (the turn each one drew) and keeps the map's labels clear of itself.

export function createNorthMarker(canvas: MapCanvas): HTMLElement {
  const arrow = h('span', { class: 'north-arrow', 'aria-hidden': 'true' }, '↑');
  const el = h(
    'p',
    { class: 'map-north', role: 'img', 'aria-label': 'North is up' },
    arrow,
    h('span', { 'aria-hidden': 'true' }, 'N'),
  );
  let shown: number | undefined = -1;
  // Degrees the floor is turned clockwise on screen (0 or 90); undefined: no map shown.
  canvas.onFrame((t) => {
    const turn = t?.turn;
    if (turn === shown) return;
    shown = turn;
    el.hidden = turn === undefined;
    const right = turn === 90;
    el.classList.toggle('turned', right);
    el.setAttribute('aria-label', right ? 'North is to the right: this floor is turned' : 'North is up');
  });
  canvas.keepClear(el);
  return el;
}
