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
