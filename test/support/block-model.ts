// An independent reference model of the block window rules (spec 3.1 and the constants of part 8),
// written from the spec text, not from the Lua scripts. It is eager where the engine is lazy:
// every window that has run out is closed the moment the clock passes its end, so comparing the
// two also proves that the engine's lazy settling (on report, read or sweep) is invisible.
//
// Readings of the spec this model takes (each one a choice the text leaves open or implies):
// - The 3.1 table is a state machine per seed: its "From" column is the state of the reported
//   seed. So a report of a seed whose window is open answers that window's end (row "open /
//   report of the same seed"), whichever key sends it and whatever else that key holds.
// - Only the owning key's `round_end` closes a window ("owned by one server key"); another key's
//   `round_end` changes nothing and answers null (reason `other_key`; `not_open` when the seed has
//   no window, `closed` only when this report closed one).
// - A seed with no budget left answers `exhausted` whatever else would refuse it (cooldown, the
//   key's own open window, the per-key gap): the budget is a fact about the seed, and no wait
//   would ever let the window open.
// - "length elapsed" closes the window at exactly openedAt + length; cooldown and gap end at
//   exactly 5 minutes (a report at that instant may open).

import { MINUTE } from './clock.ts';

export const MODEL_CAP = { game: 60 * MINUTE, http: 20 * MINUTE } as const;
export const MODEL_COOLDOWN = 5 * MINUTE;
export const MODEL_GAP = 5 * MINUTE;
/** The largest budget any seed can have (a seed that has used this much is never blocked again). */
export const MODEL_MAX_BUDGET = 60 * MINUTE;

export type ModelKeyKind = keyof typeof MODEL_CAP;
export type ModelEvent = 'round_start' | 'periodic' | 'round_end';

export interface ModelWindow {
  seed: number;
  owner: number;
  openedAt: number;
  endsAt: number;
  viewAttempts: number;
}

export interface ModelClosedWindow {
  seed: number;
  owner: number;
  at: number;
  endedAt: number;
  viewAttempts: number;
  by: 'round_end' | 'length';
}

export interface ModelSeed {
  /** Total time this seed has been blocked by closed windows. */
  used: number;
  cooldownUntil: number | null;
  window: ModelWindow | null;
  /** Whether a game-server key ever opened a window of this seed. */
  gameOpened: boolean;
}

export interface ModelKey {
  kind: ModelKeyKind;
  /** The seed of this key's open window. */
  openSeed: number | null;
  lastOpenedAt: number | null;
}

export interface ModelAnswer {
  blockedUntil: number | null;
  exhausted: boolean;
  /** Why no window is open: set exactly when blockedUntil is null without exhausted. */
  /** Why no window is open (the answer's additive `reason`); a round_end's says whether it closed one. */
  reason: 'cooldown' | 'gap' | 'busy' | 'closed' | 'not_open' | 'other_key' | null;
}

export class BlockModel {
  readonly seeds = new Map<number, ModelSeed>();
  readonly keys: ModelKey[];
  readonly closed: ModelClosedWindow[] = [];
  now: number;

  constructor(now: number, kinds: readonly ModelKeyKind[]) {
    this.now = now;
    this.keys = kinds.map((kind) => ({ kind, openSeed: null, lastOpenedAt: null }));
  }

  seed(seed: number): ModelSeed {
    let s = this.seeds.get(seed);
    if (!s) {
      s = { used: 0, cooldownUntil: null, window: null, gameOpened: false };
      this.seeds.set(seed, s);
    }
    return s;
  }

  openWindows(): ModelWindow[] {
    return [...this.seeds.values()].flatMap((s) => (s.window ? [s.window] : []));
  }

  advance(ms: number): void {
    if (ms < 0) throw new Error('the model clock only moves forward');
    this.now += ms;
    // "open / length elapsed since opening / closed": at the cap or the remaining budget.
    for (const s of this.seeds.values()) {
      if (s.window && s.window.endsAt <= this.now) this.close(s, s.window.endsAt, 'length');
    }
  }

  private close(s: ModelSeed, at: number, by: ModelClosedWindow['by']): void {
    const w = s.window!;
    // Only the time actually blocked is taken from the budget.
    s.used += at - w.openedAt;
    // "closed / 5 minutes pass / none": the seed cooldown, whichever key reports next.
    s.cooldownUntil = at + MODEL_COOLDOWN;
    s.window = null;
    const key = this.keys[w.owner]!;
    if (key.openSeed === w.seed) key.openSeed = null;
    this.closed.push({
      seed: w.seed,
      owner: w.owner,
      at: w.openedAt,
      endedAt: at,
      viewAttempts: w.viewAttempts,
      by,
    });
  }

  report(keyIndex: number, seedNumber: number, event: ModelEvent): ModelAnswer {
    const key = this.keys[keyIndex]!;
    const s = this.seed(seedNumber);
    const none = (reason: ModelAnswer['reason']) => ({ blockedUntil: null, exhausted: false, reason });

    if (event === 'round_end') {
      // "open / round_end / closed at once"; "none / round_end / never opens a window". Only
      // `closed` says a window closed; otherwise the answer says why none did.
      if (!s.window) return none('not_open');
      if (s.window.owner !== keyIndex) return none('other_key');
      this.close(s, this.now, 'round_end');
      return none('closed');
    }

    // "open / report of the same seed / other than round_end": unchanged, never extended.
    if (s.window) return { blockedUntil: s.window.endsAt, exhausted: false, reason: null };

    const cap = MODEL_CAP[key.kind];
    const remaining = cap - s.used;
    if (remaining <= 0) return { blockedUntil: null, exhausted: true, reason: null };
    if (s.cooldownUntil !== null && this.now < s.cooldownUntil) return none('cooldown');
    if (key.openSeed !== null) return none('busy');
    if (key.lastOpenedAt !== null && this.now < key.lastOpenedAt + MODEL_GAP) return none('gap');

    // Window length = min(cap, remaining budget).
    const endsAt = this.now + Math.min(cap, remaining);
    s.window = { seed: seedNumber, owner: keyIndex, openedAt: this.now, endsAt, viewAttempts: 0 };
    if (key.kind === 'game') s.gameOpened = true;
    key.openSeed = seedNumber;
    key.lastOpenedAt = this.now;
    return { blockedUntil: endsAt, exhausted: false, reason: null };
  }

  /** A read of the seed (maps, jobs): hidden until the window's end while one is open. */
  read(seedNumber: number, countView: boolean): { until: number | null } {
    const s = this.seed(seedNumber);
    if (!s.window) return { until: null };
    if (countView) s.window.viewAttempts += 1;
    return { until: s.window.endsAt };
  }

  /** Invariants of the rules themselves; throws on the first one broken. */
  checkInvariants(): void {
    const openPerKey = new Map<number, number>();
    for (const [seed, s] of this.seeds) {
      if (s.used < 0 || s.used > MODEL_MAX_BUDGET) throw new Error(`model: seed ${seed} used ${s.used}`);
      if (!s.gameOpened && s.used > MODEL_CAP.http)
        throw new Error(`model: http-only seed ${seed} over 20 min`);
      if (s.window) {
        openPerKey.set(s.window.owner, (openPerKey.get(s.window.owner) ?? 0) + 1);
        if (s.used + (s.window.endsAt - s.window.openedAt) > MODEL_MAX_BUDGET) {
          throw new Error(`model: seed ${seed} window past the budget`);
        }
      }
    }
    for (const [owner, n] of openPerKey) {
      if (n > 1) throw new Error(`model: key ${owner} owns ${n} open windows`);
    }
  }
}
