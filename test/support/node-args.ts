import { fileURLToPath } from 'node:url';

/**
 * How tests start one of our TypeScript entry points as its own process: through tsx, and under
 * the same loopback guard as the test process itself.
 */
export const TS_NODE_ARGS = [
  '--import',
  'tsx',
  '--import',
  fileURLToPath(new URL('./loopback-guard.ts', import.meta.url)),
] as const;

/**
 * How long a started entry point may take to listen: an upper bound only (tests wait for the port),
 * generous because tsx's start-up alone costs one or two CPU-seconds, and a loaded 2-core machine
 * has few to give.
 */
export const START_BOUND_MS = 60_000;
