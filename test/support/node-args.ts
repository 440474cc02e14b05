import { fileURLToPath } from 'node:url';

/**
 * How tests start one of our TypeScript entry points as its own process: through tsx, under the
 * same loopback guard as the test process itself, and with the routes a drill may give it
 * (loopback-routes.ts; none unless SEEDBLOCK_TEST_ROUTES is set).
 */
export const TS_NODE_ARGS = [
  '--import',
  'tsx',
  '--import',
  fileURLToPath(new URL('./loopback-guard.ts', import.meta.url)),
  '--import',
  fileURLToPath(new URL('./loopback-routes.ts', import.meta.url)),
] as const;
