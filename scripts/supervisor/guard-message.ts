/** What `npm start` tells its orphan guard: a pid to end if the supervisor dies, or one that is gone. */
export type GuardMessage = { watch: number } | { forget: number };
/** The guard's one word back, once it listens: messages sent before that would be lost. */
export type GuardReady = { ready: true };
