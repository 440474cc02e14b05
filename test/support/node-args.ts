import { fileURLToPath } from 'node:url';

/** Node 22.18+/23.6+ strips types itself, as the image's Node 24 does (Node 20 has no such thing). */
export const STRIPS_TYPES = Boolean((process.features as { typescript?: string }).typescript);

/**
 * How tests start one of our TypeScript entry points as its own process: as the image does
 * (`node api/main.ts`, no tsx: the image has none) where this Node strips types, else through tsx
 * (which also costs each process one or two CPU-seconds of start-up); under the same loopback guard
 * as the test process itself, and with the routes a drill may give it (loopback-routes.ts; none
 * unless SEEDBLOCK_TEST_ROUTES is set).
 */
export const TS_NODE_ARGS: readonly string[] = [
  ...(STRIPS_TYPES ? [] : ['--import', 'tsx']),
  '--import',
  fileURLToPath(new URL('./loopback-guard.ts', import.meta.url)),
  '--import',
  fileURLToPath(new URL('./loopback-routes.ts', import.meta.url)),
];

/**
 * How long a started entry point may take to listen: an upper bound only (tests wait for the port),
 * generous because tsx's start-up alone costs one or two CPU-seconds, and a loaded 2-core machine
 * has few to give.
 */
export const START_BOUND_MS = 60_000;
