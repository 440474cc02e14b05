import { h } from '../dom.ts';
import { findOnMap } from '../map/find.ts';
import type { FindEntry, FindResult } from '../map/find.ts';
import { floorById } from '../../../renderer/floors.ts';

// What "Find on this map" does as the reader types (loaded when the box is first used): list the
// matches on every floor with their counts; arrows move through them, Enter or a click chooses,
// Escape closes the list and then clears the box.

const MAX_RESULTS = 60;

/** What the list's code works with: the box's parts (find-box.ts) and what it does with a choice. */
export interface FindParts {
  input: HTMLInputElement;
  list: HTMLElement;
  status: HTMLElement;
  index(): readonly FindEntry[];
  on: { choose(r: FindResult): void; clear(): void };
}

const UNIT: Readonly<Record<FindEntry['kind'], [string, string]>> = {
  room: ['room', 'rooms'],
  zone: ['room', 'rooms'],
  item: ['spawn point', 'spawn points'],
  struct: ['spawn point', 'spawn points'],
};
const KIND_LABEL: Readonly<Record<FindEntry['kind'], string>> = {
  room: 'Room',
  zone: 'Zone',
  item: 'Item',
  struct: 'Structure',
};

function countText(r: FindResult): string {
  const [one, many] = UNIT[r.entry.kind];
  return `${r.count} ${r.count === 1 ? one : many}`;
}

/** One listed match: its name, and its kind, floor and count. */
function optionOf(r: FindResult, i: number): HTMLElement {
  const floor = floorById(r.floor);
  return h(
    'li',
    {
      id: `find-option-${i}`,
      role: 'option',
      'aria-selected': 'false',
      'data-find': r.entry.id,
      'data-floor': r.floor,
      'data-count': r.count,
    },
    h('span', { class: 'find-name' }, r.entry.name),
    h(
      'span',
      { class: 'find-detail' },
      `${KIND_LABEL[r.entry.kind]} · `,
      h('span', { class: 'visually-hidden' }, floor.label),
      h('span', { 'aria-hidden': 'true' }, floor.short),
      ` · ${countText(r)}`,
    ),
  );
}

function statusText(query: string, results: readonly FindResult[], shown: number): string {
  if (!query) return '';
  if (!results.length) return 'Nothing on this map matches.';
  const floors = new Set(results.map((r) => r.floor)).size;
  const more = results.length > shown ? `; the first ${shown} are listed` : '';
  return `${results.length} match${results.length === 1 ? '' : 'es'} on ${floors} floor${floors === 1 ? '' : 's'}${more}.`;
}

/** Wires the box; returns what re-lists the matches (a new index, or the text typed so far). */
export function attachFindList(p: FindParts): () => void {
  const { input, list, status, on } = p;
  let results: FindResult[] = [];
  let active = -1;
  const open = (yes: boolean): void => {
    list.hidden = !yes;
    input.setAttribute('aria-expanded', String(yes));
    if (!yes) setActive(-1);
  };

  function setActive(i: number): void {
    const items = list.children;
    items[active]?.setAttribute('aria-selected', 'false');
    active = i;
    const item = items[i] as HTMLElement | undefined;
    if (item) {
      item.setAttribute('aria-selected', 'true');
      input.setAttribute('aria-activedescendant', item.id);
      item.scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  }

  function render(): void {
    const query = input.value.trim();
    results = query ? findOnMap(p.index(), query) : [];
    const shown = results.slice(0, MAX_RESULTS);
    list.replaceChildren(...shown.map(optionOf));
    active = -1;
    input.removeAttribute('aria-activedescendant');
    open(shown.length > 0);
    status.textContent = statusText(query, results, shown.length);
  }

  function choose(i: number): void {
    const r = results[i];
    if (!r) return;
    input.value = r.entry.name;
    open(false);
    status.textContent = `${r.entry.name}: ${countText(r)} on ${floorById(r.floor).label}, shown on the map.`;
    on.choose(r);
  }

  input.addEventListener('input', () => {
    render();
    if (!input.value.trim()) on.clear();
  });
  input.addEventListener('focus', () => {
    if (input.value.trim() && list.hidden) render();
  });
  input.addEventListener('blur', () => open(false));
  input.addEventListener('keydown', (e) => {
    const n = Math.min(results.length, MAX_RESULTS);
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        e.preventDefault();
        if (list.hidden) render();
        if (!n) return;
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setActive(active < 0 ? (step > 0 ? 0 : n - 1) : (active + step + n) % n);
        return;
      }
      case 'Enter':
        e.preventDefault();
        if (list.hidden && input.value.trim()) render();
        choose(active >= 0 ? active : 0);
        return;
      case 'Escape':
        e.preventDefault();
        if (!list.hidden) open(false);
        else if (input.value) {
          input.value = '';
          status.textContent = '';
          on.clear();
        }
        return;
    }
  });
  // pointerdown would move focus off the input and close the list before the click lands.
  list.addEventListener('pointerdown', (e) => e.preventDefault());
  list.addEventListener('click', (e) => {
    const li = (e.target as Element).closest('li[role="option"]');
    if (li) choose(Array.prototype.indexOf.call(list.children, li));
  });

  return render;
}
