/**
 * What `npm start` tells its orphan guard: a pid to end if the supervisor dies, one that is gone,
 * or a program that runs for a port of ours (the embedded redis-server), told before it is
 * started: a supervisor killed between that spawn and naming its pid leaves it to be found.
 */
export type GuardMessage =
  { watch: number } | { forget: number } | { watchProgram: { name: string; port: number } };
/** The guard's one word back, once it listens: messages sent before that would be lost. */
export type GuardReady = { ready: true };
