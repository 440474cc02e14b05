import { h } from '../dom.ts';
import type { FindEntry, FindResult } from '../map/find.ts';
import type { MapStore } from './map-store.ts';

// "Find on this map": an ARIA 1.2 combobox (an input with a listbox popup). The box is here from
// the start; what it does as the reader types loads when it is first focused (find-list.ts). It
// follows the store: the map's index, and what is chosen.

export interface FindBox {
  el: HTMLElement;
  input: HTMLInputElement;
}

export function createFindBox(
  store: MapStore,
  on: {
    choose(r: FindResult): void;
    clear(): void;
    /** Asks for the map's index (built when Find is first opened). */
    needIndex(): void;
  },
): FindBox {
  let index: readonly FindEntry[] = [];
  /** Re-lists the matches, once the list's code is loaded. */
  let relist: (() => void) | undefined;
  const input = h('input', {
    id: 'find-input',
    type: 'search',
    role: 'combobox',
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
    'aria-controls': 'find-list',
    autocomplete: 'off',
    spellcheck: 'false',
    enterkeyhint: 'go',
    placeholder: 'Room, zone or item: SCP-079, keycard…',
    disabled: true,
  });
  const list = h('ul', {
    id: 'find-list',
    role: 'listbox',
    'aria-label': 'Matches on this map',
    hidden: true,
  });
  const status = h('p', { class: 'find-status', role: 'status' });
  const el = h(
    'div',
    { class: 'find', role: 'search', 'aria-label': 'Find on this map' },
    h('label', { for: 'find-input', class: 'find-label' }, 'Find on this map'),
    h('div', { class: 'find-field' }, input, list),
    status,
  );

  const load = (): void => {
    input.removeEventListener('focus', load);
    on.needIndex();
    void import('./map-tools.ts').then((m) => {
      relist = m.attachFindList({ input, list, status, index: () => index, on });
      // Whatever was typed while it loaded.
      if (document.activeElement === input && input.value.trim()) relist();
    });
  };
  input.addEventListener('focus', load);
  // Each new map's index is asked for when the box is used again.
  input.addEventListener('focus', () => on.needIndex());

  // The map's index; none while no map is shown.
  store.follow(['findIndex'], (m) => {
    index = m.map ? m.findIndex : [];
    input.disabled = !m.map;
    if (document.activeElement === input && input.value.trim()) relist?.();
  });
  // What is chosen (from a link or a choice), in the box.
  store.follow(['map', 'find', 'floor', 'findIndex'], () => {
    if (document.activeElement === input) return;
    const entry = store.found();
    input.value = entry?.name ?? '';
    if (!entry) status.textContent = '';
  });
  return { el, input };
}
