import { h } from '../dom.ts';
import type { LoadState } from '../load/map-loader.ts';
import type { StatusStates } from './map-status-states.ts';

// The status line above the map. The message region is polite-live; the ticking countdown sits in
// a role=timer element, which screen readers do not announce on every tick. Loading and ready are
// said here; the rarer states' code loads when one first comes (map-status-states.ts).

export interface StatusView {
  el: HTMLElement;
  show(seed: number | undefined, s: LoadState | { state: 'idle' }): void;
  dispose(): void;
}

export function createStatus(): StatusView {
  const message = h('p', { class: 'status-message' });
  const timer = h('span', { class: 'status-timer', role: 'timer', 'aria-atomic': 'true', hidden: true });
  const detail = h('p', { class: 'status-detail' });
  // The queue as a bar: full once the map is next. The detail line says the same in words.
  const progress = h('progress', { class: 'status-progress', 'aria-hidden': 'true', hidden: true });
  const el = h(
    'div',
    { class: 'status', role: 'status', 'aria-live': 'polite' },
    message,
    timer,
    progress,
    detail,
  );
  let states: StatusStates | undefined;
  /** Counts calls, so a state whose code arrives late is not shown over a newer one. */
  let shown = 0;
  const show = (seed: number | undefined, s: LoadState | { state: 'idle' }): void => {
    const n = ++shown;
    states?.stopTick();
    el.dataset.kind = s.state;
    delete el.dataset.ahead;
    detail.textContent = '';
    progress.hidden = true;
    const seedText = seed === undefined ? 'this seed' : `seed ${seed}`;
    if (s.state === 'idle') message.textContent = 'Enter a seed to see its facility map.';
    else if (s.state === 'loading') message.textContent = `Loading the map of ${seedText}…`;
    else if (s.state === 'ready') message.textContent = '';
    else if (states) states.show(seedText, seed, s);
    else
      void import('./map-status-states.ts').then((m) => {
        states ??= m.statusStates({ el, message, timer, detail, progress });
        if (n === shown) states.show(seedText, seed, s);
      });
  };
  return { el, show, dispose: () => states?.stopTick() };
}
