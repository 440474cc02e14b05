import { clear, h } from '../dom.ts';
import { FLOORS } from '../map/floors.ts';
import type { FloorId } from '../map/floors.ts';
import type { Layers } from '../map/render-map.ts';
import { ALL } from '../map/spawn-filter.ts';
import type { FilterOption } from '../map/spawn-filter.ts';
import type { MapState } from '../state/url-state.ts';

// Seed box and toolbar of the map page. Plain form controls, so everything is keyboard reachable
// and labelled without extra ARIA.

export interface ControlHandlers {
  submitSeed(raw: string): void;
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
  seedForm: HTMLFormElement;
  toolbar: HTMLElement;
  matches: HTMLElement;
  sync(state: MapState): void;
  setSeedError(message: string | undefined): void;
  setFilterOptions(items: FilterOption[], structures: FilterOption[], state: MapState): void;
  setMapReady(ready: boolean): void;
}

const LAYER_LABELS: readonly [keyof Layers, string][] = [
  ['doors', 'Heavy doors'],
  ['teslas', 'Tesla gates'],
  ['structures', 'Structure spawns'],
  ['items', 'Item spawns'],
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

export function createControls(on: ControlHandlers): Controls {
  const seedInput = h('input', {
    id: 'seed-input',
    name: 'seed',
    type: 'text',
    inputmode: 'numeric',
    autocomplete: 'off',
    spellcheck: 'false',
    pattern: '[0-9]*',
    placeholder: 'e.g. 224593721',
    'aria-describedby': 'seed-hint seed-error',
  });
  const seedError = h('p', { id: 'seed-error', class: 'field-error', 'aria-live': 'assertive' });
  const seedForm = h(
    'form',
    { class: 'seed-form', role: 'search', 'aria-label': 'Open a seed', novalidate: true },
    h('label', { for: 'seed-input' }, 'Seed'),
    h(
      'div',
      { class: 'seed-input-row' },
      seedInput,
      h('button', { type: 'submit', class: 'primary' }, 'Show map'),
    ),
    h('p', { id: 'seed-hint', class: 'hint' }, 'A whole number from 1 to 2147483647.'),
    seedError,
  );
  seedForm.addEventListener('submit', (e) => {
    e.preventDefault();
    on.submitSeed(seedInput.value);
  });

  const floorInputs = new Map<FloorId, HTMLInputElement>();
  const floorSet = h('fieldset', { class: 'floors' }, h('legend', {}, 'Floor'));
  for (const f of FLOORS) {
    const input = h('input', { type: 'radio', name: 'floor', value: f.id, id: `floor-${f.id}` });
    input.addEventListener('change', () => input.checked && on.setFloor(f.id));
    floorInputs.set(f.id, input);
    // Players know the zones by their short names; screen readers get the full name.
    const text = h(
      'span',
      { title: f.label },
      h('span', { class: 'visually-hidden' }, f.label),
      h('span', { 'aria-hidden': 'true' }, f.short),
    );
    floorSet.appendChild(h('label', { for: `floor-${f.id}`, class: 'seg' }, input, text));
  }

  const layerInputs = new Map<keyof Layers, HTMLInputElement>();
  const layerSet = h('fieldset', { class: 'layers' }, h('legend', {}, 'Layers'));
  for (const [key, label] of LAYER_LABELS) {
    const input = h('input', { type: 'checkbox', name: key, id: `layer-${key}` });
    input.addEventListener('change', () => on.setLayer(key, input.checked));
    layerInputs.set(key, input);
    layerSet.appendChild(h('label', { for: `layer-${key}`, class: 'check' }, input, h('span', {}, label)));
  }

  const itemSelect = h('select', { id: 'item-filter', name: 'item' });
  itemSelect.addEventListener('change', () => on.setItemFilter(itemSelect.value));
  const structSelect = h('select', { id: 'struct-filter', name: 'struct' });
  structSelect.addEventListener('change', () => on.setStructFilter(structSelect.value));
  const matches = h('p', { class: 'matches', 'aria-live': 'polite' });
  const filters = h(
    'div',
    { class: 'filters' },
    h('label', { for: 'item-filter' }, 'Item type'),
    itemSelect,
    h('label', { for: 'struct-filter' }, 'Structure type'),
    structSelect,
  );

  const button = (label: string, text: string, action: () => void, cls = ''): HTMLButtonElement => {
    const b = h('button', { type: 'button', 'aria-label': label, title: label, class: cls }, text);
    b.addEventListener('click', action);
    return b;
  };
  const downloadButton = button('Download the current view as PNG', 'PNG', on.download, 'download');
  const actions = h(
    'div',
    { class: 'view-actions', role: 'group', 'aria-label': 'View' },
    button('Zoom in', '+', on.zoomIn),
    button('Zoom out', '−', on.zoomOut),
    button('Reset view', 'Fit', on.reset),
    downloadButton,
  );

  const toolbar = h('div', { class: 'toolbar' }, floorSet, layerSet, filters, actions);

  return {
    seedForm,
    toolbar,
    matches,
    sync(state) {
      const text =
        state.seed.kind === 'valid'
          ? String(state.seed.seed)
          : state.seed.kind === 'invalid'
            ? state.seed.raw
            : '';
      if (document.activeElement !== seedInput) seedInput.value = text;
      for (const [id, input] of floorInputs) input.checked = id === state.floor;
      for (const [key, input] of layerInputs) input.checked = state.layers[key];
      if (itemSelect.value !== state.item) itemSelect.value = state.item;
      if (structSelect.value !== state.struct) structSelect.value = state.struct;
    },
    setSeedError(message) {
      seedError.textContent = message ?? '';
      if (message) seedInput.setAttribute('aria-invalid', 'true');
      else seedInput.removeAttribute('aria-invalid');
    },
    setFilterOptions(items, structures, state) {
      fillSelect(itemSelect, items, state.item);
      fillSelect(structSelect, structures, state.struct);
    },
    setMapReady(ready) {
      downloadButton.disabled = !ready;
    },
  };
}
