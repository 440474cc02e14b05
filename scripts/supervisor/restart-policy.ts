// When a dead child is started again, and when its deaths are a crash loop.

/** The first restart waits this long; each further one twice as long, up to BACKOFF_MAX_MS. */
export const BACKOFF_FIRST_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;
/** This many exits of one child within CRASH_LOOP_WINDOW_MS is a crash loop: the service stops. */
export const CRASH_LOOP_EXITS = 5;
export const CRASH_LOOP_WINDOW_MS = 60_000;

export class RestartPolicy {
  private exits: number[] = [];
  /** Restarts so far, for the log. */
  restarts = 0;

  /** Records an exit at `now`; returns the back-off before the restart. */
  exited(now: number, startedAt: number): number {
    this.exits = [...this.exits.filter((at) => now - at < CRASH_LOOP_WINDOW_MS), now];
    // A child that ran a whole window before dying starts over from the first back-off.
    const streak = now - startedAt >= CRASH_LOOP_WINDOW_MS ? 1 : this.exits.length;
    this.restarts++;
    return Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (streak - 1));
  }

  crashLoop(): boolean {
    return this.exits.length >= CRASH_LOOP_EXITS;
  }
}
