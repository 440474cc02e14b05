import { h } from '../dom.ts';
import type { MapStore } from './map-store.ts';

// The route's controls beside "Find on this map": set the found room as start or end, clear the
// route, and a status line that reads the route's summary out. On a phone the panel sits over the
// map folded to one line (the summary, cut to fit, and a button that unfolds it), so the route
// it describes stays in sight. It follows the store: the room Find chose, and the route.

export function createRoutePanel(
  store: MapStore,
  on: {
    route(end: 'from' | 'to', id: string): void;
    clear(): void;
  },
): HTMLElement {
  let found: { id: string; name: string } | undefined;
  const from = h(
    'button',
    { type: 'button', class: 'link', 'data-route': 'from', hidden: true },
    'Route from found room',
  );
  const to = h(
    'button',
    { type: 'button', class: 'link', 'data-route': 'to', hidden: true },
    'Route to found room',
  );
  const clear = h('button', { type: 'button', class: 'link', hidden: true }, 'Clear route');
  const status = h('p', { id: 'route-status', class: 'route-status', role: 'status' });
  const more = h(
    'button',
    { type: 'button', class: 'route-more link', 'aria-expanded': 'false', 'aria-controls': 'route-status' },
    'More',
  );
  more.addEventListener('click', () => {
    const open = more.getAttribute('aria-expanded') !== 'true';
    more.setAttribute('aria-expanded', String(open));
    more.textContent = open ? 'Less' : 'More';
    el.classList.toggle('unfolded', open);
  });
  from.addEventListener('click', () => found && on.route('from', found.id));
  to.addEventListener('click', () => found && on.route('to', found.id));
  clear.addEventListener('click', () => on.clear());
  const el = h(
    'div',
    { class: 'route', hidden: true },
    h('p', { class: 'route-actions' }, from, to, clear),
    h('div', { class: 'route-line' }, status, more),
  );
  let active = false;
  // Nothing to offer until a room is found or a route is under way.
  const fold = (): void => void (el.hidden = !found && !active);
  // The room "Find" chose, which the buttons use as an end.
  store.follow(['map', 'find', 'findIndex'], (m) => {
    const chosen = store.found();
    found = m.map && chosen?.kind === 'room' ? { id: chosen.id, name: chosen.name } : undefined;
    from.hidden = to.hidden = !found;
    from.title = to.title = found ? found.name : '';
    fold();
  });
  // The summary or what is still missing, and whether a route is under way (it can be cleared).
  store.follow(['routed'], ({ routed }) => {
    status.textContent = routed.text;
    active = routed.active;
    clear.hidden = !active;
    el.classList.toggle('active', active);
    fold();
  });
  return el;
}
