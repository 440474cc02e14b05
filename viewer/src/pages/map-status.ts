import { h } from '../dom.ts';
import { formatInt, formatUtc } from '../format.ts';
import type { LoadState } from '../load/map-loader.ts';
import { formatCountdown, remainingMs } from '../load/server-clock.ts';

// The status line above the map. The message region is polite-live; the ticking countdown sits in
// a role=timer element, which screen readers do not announce on every tick.

export interface StatusView {
  el: HTMLElement;
  show(seed: number | undefined, s: LoadState | { state: 'idle' }): void;
  dispose(): void;
}

export function createStatus(): StatusView {
  const message = h('p', { class: 'status-message' });
  const timer = h('span', { class: 'status-timer', role: 'timer', 'aria-atomic': 'true' });
  const detail = h('p', { class: 'status-detail' });
  const el = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' }, message, timer, detail);
  let tick: number | undefined;

  const stopTick = (): void => {
    window.clearInterval(tick);
    tick = undefined;
    timer.textContent = '';
    timer.hidden = true;
    delete timer.dataset.until;
  };

  /** Updates the timer text from a function; only touches the DOM when the text changes. */
  const startTick = (text: () => string): void => {
    stopTick();
    timer.hidden = false;
    const update = (): void => {
      const t = text();
      if (timer.textContent !== t) timer.textContent = t;
    };
    update();
    tick = window.setInterval(update, 250);
  };

  const seconds = (retryAt: number): string => `${Math.max(0, Math.ceil((retryAt - Date.now()) / 1000))} s`;

  return {
    el,
    show(seed, s) {
      stopTick();
      el.dataset.kind = s.state;
      delete el.dataset.ahead;
      detail.textContent = '';
      const seedText = seed === undefined ? 'this seed' : `seed ${seed}`;
      switch (s.state) {
        case 'idle':
          message.textContent = 'Enter a seed to see its facility map.';
          break;
        case 'loading':
          message.textContent = `Loading the map of ${seedText}…`;
          break;
        case 'ready':
          message.textContent = '';
          break;
        case 'generating':
          if (s.job === 'error') {
            message.textContent = `Generating the map of ${seedText} failed (${s.error ?? 'unknown error'}). Trying again…`;
          } else if (s.job === 'running') {
            message.textContent = `Generating the map of ${seedText}… it appears here as soon as it is ready.`;
          } else {
            message.textContent = `The map of ${seedText} is queued for generation.`;
            if (s.ahead !== undefined) {
              el.dataset.ahead = String(s.ahead);
              detail.textContent =
                s.ahead === 0
                  ? 'It is next in the queue.'
                  : `${formatInt(s.ahead)} seed${s.ahead === 1 ? '' : 's'} ahead in the queue.`;
            } else {
              detail.textContent = 'Generation usually takes seconds to a minute.';
            }
          }
          break;
        case 'blocked': {
          message.textContent = s.overdue
            ? `The block on ${seedText} should have ended; checking again…`
            : `A game server is playing ${seedText} right now, so its map is hidden. It opens in`;
          detail.textContent = `Block ends ${formatUtc(new Date(s.until).toISOString())} (server time). The map loads by itself.`;
          startTick(() => formatCountdown(remainingMs(s.until, s.offset, Date.now())));
          // After startTick, which clears the timer (and an earlier end time) first.
          timer.dataset.until = new Date(s.until).toISOString();
          break;
        }
        case 'blocked-permanent':
          message.textContent = `The map of ${seedText} is permanently blocked and cannot be viewed.`;
          break;
        case 'rate-limited':
          message.textContent =
            'Too many new seeds were requested from your address. Waiting as the server asks, then retrying in';
          startTick(() => seconds(s.retryAt));
          break;
        case 'unavailable':
          message.textContent =
            s.reason === 'network'
              ? 'The server cannot be reached. Retrying in'
              : s.reason === 'busy'
                ? 'The map service is busy (map unavailable). Retrying in'
                : 'The server answered with an error. Retrying in';
          startTick(() => seconds(s.retryAt));
          break;
        case 'invalid':
          message.textContent = 'That seed is not valid.';
          break;
      }
    },
    dispose: stopTick,
  };
}
