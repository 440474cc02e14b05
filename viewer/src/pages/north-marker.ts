import { h } from '../dom.ts';

// Which way is north on the map: phone and desktop players share directions by it, and a phone
// held upright shows a wide floor turned a quarter (north to the right).

export interface NorthMarker {
  el: HTMLElement;
  /** Degrees the floor is turned clockwise on screen (0 or 90); undefined: no map shown. */
  show(turn: number | undefined): void;
}

export function createNorthMarker(): NorthMarker {
  const arrow = h('span', { class: 'north-arrow', 'aria-hidden': 'true' }, '↑');
  const el = h(
    'p',
    { class: 'map-north', role: 'img', 'aria-label': 'North is up' },
    arrow,
    h('span', { 'aria-hidden': 'true' }, 'N'),
  );
  let shown: number | undefined = -1;
  return {
    el,
    show(turn) {
      if (turn === shown) return;
      shown = turn;
      el.hidden = turn === undefined;
      const right = turn === 90;
      el.classList.toggle('turned', right);
      el.setAttribute('aria-label', right ? 'North is to the right: this floor is turned' : 'North is up');
      el.title = right ? 'North is to the right (floor turned to fit the screen)' : 'North is up';
    },
  };
}
