import { formatInt, formatUtc } from '../format.ts';
import type { LoadState, UnavailableReason } from '../load/map-loader.ts';
import { formatCountdown, remainingMs } from '../load/server-clock.ts';

// The status line's rarer states (queued, generating, blocked, rate limited, unavailable,
// invalid), loaded when one first comes: a first visit to a generated map never needs them.

const UNAVAILABLE: Record<UnavailableReason, string> = {
  network: 'The server cannot be reached. Retrying in',
  busy: 'The map service is busy (map unavailable). Retrying in',
  db: 'The map service is unavailable right now. Retrying in',
  error: 'The server answered with an error. Retrying in',
};

/** The status line's elements (map-status.ts makes them). */
export interface StatusParts {
  el: HTMLElement;
  message: HTMLElement;
  timer: HTMLElement;
  detail: HTMLElement;
  progress: HTMLProgressElement;
}

export interface StatusStates {
  show(seedText: string, seed: number | undefined, s: LoadState): void;
  stopTick(): void;
}

export function statusStates(p: StatusParts): StatusStates {
  const { el, message, timer, detail, progress } = p;
  let tick: number | undefined;
  /** The longest queue seen ahead of this seed: where the bar starts. */
  let queue: { seed: number | undefined; longest: number } | undefined;

  const showQueue = (seed: number | undefined, ahead: number | undefined): void => {
    progress.hidden = false;
    if (ahead === undefined) {
      progress.removeAttribute('value'); // indeterminate: generating, or the place is not known
      return;
    }
    const seen = queue?.seed === seed ? (queue?.longest ?? 0) : 0;
    const longest = Math.max(seen, ahead);
    queue = { seed, longest };
    progress.max = longest + 1;
    progress.value = longest - ahead + 1;
  };

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
    stopTick,
    show(seedText, seed, s) {
      switch (s.state) {
        case 'generating':
          if (s.job === 'error') {
            message.textContent = `Generating the map of ${seedText} failed (${s.error ?? 'unknown error'}). Trying again…`;
          } else if (s.job === 'running') {
            message.textContent = `Generating the map of ${seedText}… it appears here as soon as it is ready.`;
            showQueue(seed, undefined);
          } else {
            showQueue(seed, s.ahead);
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
          message.textContent = UNAVAILABLE[s.reason];
          startTick(() => seconds(s.retryAt));
          break;
        case 'invalid':
          message.textContent = 'That seed is not valid.';
          break;
        default:
          break;
      }
    },
  };
}
