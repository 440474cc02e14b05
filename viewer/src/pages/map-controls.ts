import { clear, h } from '../dom.ts';
import { FLOORS } from '../../../renderer/floors.ts';
import type { FloorId } from '../../../renderer/floors.ts';
import type { Layers } from '../../../renderer/render-map.ts';
import { ALL } from '../../../renderer/spawn-filter.ts';
import type { FilterOption } from '../../../renderer/spawn-filter.ts';
import type { MapState } from '../state/url-state.ts';
import type { MapStore } from './map-store.ts';

// The map page's controls, in blocks the page lays out: the quick bar (floors, layers; always in
// view), the filters and the view buttons over the map. They follow the store for the state they
// show. (The seed box is seed-box.ts, the panel's toggle map-layout.ts.)
// Plain form controls, so everything is keyboard reachable and labelled without extra ARIA.

export interface ControlHandlers {
  setFloor(floor: FloorId): void;
  setLayer(layer: keyof Layers, on: boolean): void;
  setItemFilter(value: string): void;
  setStructFilter(value: string): void;
  zoomIn(): void;
  zoomOut(): void;
  reset(): void;
  download(): void;
}

export interface Controls {
  quick: HTMLElement;
  filters: HTMLElement;
  viewActions: HTMLElement;
  setFilterOptions(items: FilterOption[], structures: FilterOption[], state: MapState): void;
  /** Without a map, the controls that act on one are disabled: zoom, filters, layers, PNG. */
  setMapReady(ready: boolean): void;
}

const LAYER_LABELS: readonly [keyof Layers, string, string][] = [
  ['doors', 'Heavy doors', 'Doors'],
  ['teslas', 'Tesla gates', 'Teslas'],
  ['structures', 'Structure spawns', 'Structures'],
  ['items', 'Item spawns', 'Items'],
];

function fillSelect(select: HTMLSelectElement, options: FilterOption[], value: string): void {
  clear(select);
  let found = false;
  for (const o of options) {
    found ||= o.value === value;
    select.appendChild(h('option', { value: o.value }, `${o.label} (${o.count})`));
  }
  // A deep link may name a type this map does not have; keep it visible rather than dropping it.
  if (!found && value !== ALL) select.appendChild(h('option', { value }, `${value} (0)`));
  select.value = value;
}

/**
 * A chip's text: short on screen, and read as the short text followed by the full name, so the
 * name a speech user says (the visible text) is part of the accessible name (WCAG 2.5.3).
 */
function shortText(full: string, short: string): HTMLElement {
  return h(
    'span',
    { title: full },
    short,
    short !== full && h('span', { class: 'visually-hidden' }, ` (${full})`),
  );
}

export function makeButton(
  label: string,
  text: string,
  action: () => void,
  title = label,
): HTMLButtonElement {
  const b = h('button', { type: 'button', 'aria-label': label, title }, text);
  b.addEventListener('click', action);
  return b;
}

/** The floor radios: players know the zones by their short names; screen readers also get the full name. */
function floorChoice(on: ControlHandlers): { set: HTMLElement; inputs: Map<FloorId, HTMLInputElement> } {
  const inputs = new Map<FloorId, HTMLInputElement>();
  const set = h('fieldset', { class: 'floors' }, h('legend', { class: 'visually-hidden' }, 'Floor'));
  for (const f of FLOORS) {
    const input = h('input', { type: 'radio', name: 'floor', value: f.id, id: `floor-${f.id}` });
    input.addEventListener('change', () => input.checked && on.setFloor(f.id));
    inputs.set(f.id, input);
    set.appendChild(h('label', { for: `floor-${f.id}`, class: 'seg' }, input, shortText(f.label, f.short)));
  }
  return { set, inputs };
}

/** The layer chips. */
function layerChoice(on: ControlHandlers): { set: HTMLElement; inputs: Map<keyof Layers, HTMLInputElement> } {
  const inputs = new Map<keyof Layers, HTMLInputElement>();
  const set = h('fieldset', { class: 'layers' }, h('legend', { class: 'visually-hidden' }, 'Layers'));
  for (const [key, label, short] of LAYER_LABELS) {
    const input = h('input', { type: 'checkbox', name: key, id: `layer-${key}` });
    input.addEventListener('change', () => on.setLayer(key, input.checked));
    inputs.set(key, input);
    set.appendChild(h('label', { for: `layer-${key}`, class: 'chip' }, input, shortText(label, short)));
  }
  return { set, inputs };
}

/** The item and structure filters. */
function filterControls(on: ControlHandlers) {
  const itemSelect = h('select', { id: 'item-filter', name: 'item' });
  itemSelect.addEventListener('change', () => on.setItemFilter(itemSelect.value));
  const structSelect = h('select', { id: 'struct-filter', name: 'struct' });
  structSelect.addEventListener('change', () => on.setStructFilter(structSelect.value));
  const filters = h(
    'div',
    { class: 'filters' },
    h('label', { for: 'item-filter' }, 'Item type'),
    itemSelect,
    h('label', { for: 'struct-filter' }, 'Structure type'),
    structSelect,
  );
  return { filters, itemSelect, structSelect };
}

/** The view buttons over the map. */
function viewButtons(on: ControlHandlers): HTMLButtonElement[] {
  const buttons = [
    makeButton('Zoom in', '+', on.zoomIn),
    makeButton('Zoom out', '−', on.zoomOut),
    makeButton('Reset view', 'Reset', on.reset),
    makeButton('Download the whole floor as PNG', 'PNG', on.download),
    makeButton(
      'Copy link to this view',
      'Link',
      () => void import('./copy-link.ts').then((m) => m.copyLink(buttons[4]!)),
      'Copy link to this view',
    ),
  ];
  return buttons;
}

/** The controls, following the store for what they show of the state (floor, layers, filters). */
export function createControls(store: MapStore, on: ControlHandlers): Controls {
  const floors = floorChoice(on);
  const layers = layerChoice(on);
  const { filters, itemSelect, structSelect } = filterControls(on);
  const buttons = viewButtons(on);
  const viewActions = h('div', { class: 'view-actions', role: 'group', 'aria-label': 'View' }, ...buttons);
  const mapOnly = [...buttons, ...layers.inputs.values(), itemSelect, structSelect];

  const sync = (state: MapState): void => {
    for (const [id, input] of floors.inputs) input.checked = id === state.floor;
    for (const [key, input] of layers.inputs) input.checked = state.layers[key];
    if (itemSelect.value !== state.item) itemSelect.value = state.item;
    if (structSelect.value !== state.struct) structSelect.value = state.struct;
  };
  store.follow(['floor', 'layers', 'item', 'struct'], (m) => sync(m.state));
  sync(store.model.state);

  return {
    quick: h('div', { class: 'map-quick' }, floors.set, layers.set),
    filters,
    viewActions,
    setFilterOptions(items, structures, state) {
      fillSelect(itemSelect, items, state.item);
      fillSelect(structSelect, structures, state.struct);
    },
    setMapReady(ready) {
      for (const c of mapOnly) c.disabled = !ready;
    },
  };
}
