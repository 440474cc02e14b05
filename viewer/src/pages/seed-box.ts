import { h } from '../dom.ts';
import type { MapState } from '../state/url-state.ts';
import { makeButton } from './map-controls.ts';
import type { MapStore } from './map-store.ts';
import { seedForm } from './seed-form.ts';

// The map page's seed box: the seed field with the seed list's steps (previous, random, next) and
// a note under them. It follows the store for the seed it shows.

export type SeedStep = 'previous' | 'random' | 'next';

export interface SeedBox {
  el: HTMLElement;
  setError(message: string | undefined): void;
  /** A short note under the seed buttons ("this is the newest seed"), or none. */
  setNote(message: string | undefined): void;
  /** On the oldest seed of the list, "Next" has nowhere to go. */
  setOldest(oldest: boolean): void;
}

/** The box's text for a state's seed. */
const seedText = (seed: MapState['seed']): string =>
  seed.kind === 'valid' ? String(seed.seed) : seed.kind === 'invalid' ? seed.raw : '';

export function createSeedBox(
  store: MapStore,
  on: { submit(raw: string): void; step(step: SeedStep): void },
): SeedBox {
  const { form, input, error } = seedForm(
    h('p', { class: 'hint visually-hidden' }, 'A whole number from 1 to 2147483647.'),
    on.submit,
    'e.g. 224593721',
  );
  const note = h('p', { class: 'hint seed-note', 'aria-live': 'polite' });
  const next = makeButton(
    'Next seed',
    'Next ›',
    () => on.step('next'),
    'Next seed: one older in the seed list (N)',
  );
  const stepper = h(
    'div',
    { class: 'seed-steps', role: 'group', 'aria-label': 'Seed list' },
    makeButton(
      'Previous seed',
      '‹ Previous',
      () => on.step('previous'),
      'Previous seed: one newer in the seed list (P)',
    ),
    makeButton('Random seed', 'Random', () => on.step('random'), 'A random generated seed (R)'),
    next,
  );
  const show = (state: MapState): void => {
    if (document.activeElement !== input) input.value = seedText(state.seed);
  };
  store.follow(['seed'], (m) => show(m.state));
  show(store.model.state);
  return {
    el: h('div', { class: 'seed-block' }, form, stepper, note),
    setError(message) {
      error.textContent = message ?? '';
      if (message) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    },
    setNote(message) {
      note.textContent = message ?? '';
    },
    setOldest(oldest) {
      next.disabled = oldest;
    },
  };
}
