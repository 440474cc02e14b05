import { clear, h } from '../dom.ts';
import { seedForm as seedFormOf } from './seed-form.ts';
import { FLOORS } from '../../../renderer/floors.ts';
import type { FloorId } from '../../../renderer/floors.ts';
import type { Layers } from '../../../renderer/render-map.ts';
import { ALL } from '../../../renderer/spawn-filter.ts';
import type { FilterOption } from '../../../renderer/spawn-filter.ts';
import type { MapState } from '../state/url-state.ts';

// The map page's controls, in blocks the page lays out: the seed box with the seed list buttons,
// the quick bar (floors, layers; always in view), the filters, the view buttons over the map, and
// the button that opens the folded panel on narrow screens.
// Plain form controls, so everything is keyboard reachable and labelled without extra ARIA.

export type SeedStep = 'previous' | 'random' | 'next';

export interface ControlHandlers {
  submitSeed(raw: string): void;
  stepSeed(step: SeedStep): void;
  setFloor(floor: FloorId): void;
  setLayer(layer: keyof Layers, on: boolean): void;
  setItemFilter(value: string): void;
  setStructFilter(value: string): void;
  zoomIn(): void;
  zoomOut(): void;
  reset(): void;
  download(): void;
  togglePanel(): void;
}

export interface Controls {
  seedBlock: HTMLElement;
  quick: HTMLElement;
  filters: HTMLElement;
  matches: HTMLElement;
  viewActions: HTMLElement;
  panelToggle: HTMLButtonElement;
  sync(state: MapState): void;
  setSeedError(message: string | undefined): void;
  /** A short note under the seed buttons ("this is the newest seed"), or none. */
  setSeedNote(message: string | undefined): void;
  setFilterOptions(items: FilterOption[], structures: FilterOption[], state: MapState): void;
  /** Without a map, the controls that act on one are disabled: zoom, filters, layers, PNG. */
  setMapReady(ready: boolean): void;
  /** On the oldest seed of the list, "Next" has nowhere to go. */
  setOldest(oldest: boolean): void;
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

function makeButton(label: string, text: string, action: () => void, title = label): HTMLButtonElement {
  const b = h('button', { type: 'button', 'aria-label': label, title }, text);
  b.addEventListener('click', action);
  return b;
}

/** The seed box and the seed list's steps. */
function seedControls(on: ControlHandlers): {
  seedBlock: HTMLElement;
  seedInput: HTMLInputElement;
  seedError: HTMLElement;
  seedNote: HTMLElement;
  nextButton: HTMLButtonElement;
} {
  const button = makeButton;
  const {
    form: seedForm,
    input: seedInput,
    error: seedError,
  } = seedFormOf(
    h('p', { class: 'hint visually-hidden' }, 'A whole number from 1 to 2147483647.'),
    on.submitSeed,
    'e.g. 224593721',
  );
  const seedNote = h('p', { class: 'hint seed-note', 'aria-live': 'polite' });
  const nextButton = button(
    'Next seed',
    'Next ›',
    () => on.stepSeed('next'),
    'Next seed: one older in the seed list (N)',
  );
  const stepper = h(
    'div',
    { class: 'seed-steps', role: 'group', 'aria-label': 'Seed list' },
    button(
      'Previous seed',
      '‹ Previous',
      () => on.stepSeed('previous'),
      'Previous seed: one newer in the seed list (P)',
    ),
    button('Random seed', 'Random', () => on.stepSeed('random'), 'A random generated seed (R)'),
    nextButton,
  );
  const seedBlock = h('div', { class: 'seed-block' }, seedForm, stepper, seedNote);

  return { seedBlock, seedInput, seedError, seedNote, nextButton };
}

export function createControls(on: ControlHandlers): Controls {
  const button = makeButton;
  const { seedBlock, seedInput, seedError, seedNote, nextButton } = seedControls(on);

  const floorInputs = new Map<FloorId, HTMLInputElement>();
  const floorSet = h('fieldset', { class: 'floors' }, h('legend', { class: 'visually-hidden' }, 'Floor'));
  for (const f of FLOORS) {
    const input = h('input', { type: 'radio', name: 'floor', value: f.id, id: `floor-${f.id}` });
    input.addEventListener('change', () => input.checked && on.setFloor(f.id));
    floorInputs.set(f.id, input);
    // Players know the zones by their short names; screen readers also get the full name.
    floorSet.appendChild(
      h('label', { for: `floor-${f.id}`, class: 'seg' }, input, shortText(f.label, f.short)),
    );
  }

  const layerInputs = new Map<keyof Layers, HTMLInputElement>();
  const layerSet = h('fieldset', { class: 'layers' }, h('legend', { class: 'visually-hidden' }, 'Layers'));
  for (const [key, label, short] of LAYER_LABELS) {
    const input = h('input', { type: 'checkbox', name: key, id: `layer-${key}` });
    input.addEventListener('change', () => on.setLayer(key, input.checked));
    layerInputs.set(key, input);
    layerSet.appendChild(h('label', { for: `layer-${key}`, class: 'chip' }, input, shortText(label, short)));
  }

  // Narrow screens only. Its name says what it opens; on screen it reads "Seed", as the panel
  // starts with the seed box.
  const panelToggle = h(
    'button',
    {
      type: 'button',
      class: 'panel-toggle',
      'aria-label': 'Seed & filters',
      'aria-controls': 'map-panel',
      'aria-expanded': 'false',
    },
    'Seed',
  );
  panelToggle.addEventListener('click', on.togglePanel);
  const quick = h('div', { class: 'map-quick' }, floorSet, layerSet);

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

  const viewButtons = [
    button('Zoom in', '+', on.zoomIn),
    button('Zoom out', '−', on.zoomOut),
    button('Reset view', 'Reset', on.reset),
    button('Download the whole floor as PNG', 'PNG', on.download),
    button(
      'Copy link to this view',
      'Link',
      () => void import('./copy-link.ts').then((m) => m.copyLink(viewButtons[4]!)),
      'Copy link to this view',
    ),
  ];
  const viewActions = h(
    'div',
    { class: 'view-actions', role: 'group', 'aria-label': 'View' },
    ...viewButtons,
  );
  const mapOnly = [...viewButtons, ...layerInputs.values(), itemSelect, structSelect];

  return {
    seedBlock,
    quick,
    filters,
    matches,
    viewActions,
    panelToggle,
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
    setSeedNote(message) {
      seedNote.textContent = message ?? '';
    },
    setFilterOptions(items, structures, state) {
      fillSelect(itemSelect, items, state.item);
      fillSelect(structSelect, structures, state.struct);
    },
    setMapReady(ready) {
      for (const c of mapOnly) c.disabled = !ready;
    },
    setOldest(oldest) {
      nextButton.disabled = oldest;
    },
  };
}
