import { fileURLToPath } from 'node:url';
import { bundledEntry, bundlePath, CHILD_PRELOADS } from './entry-bundles.ts';
import { REPO_ROOT } from './repo.ts';

/** Node 22.18+/23.6+ strips types itself, as the image's Node 24 does (Node 20 has no such thing). */
export const STRIPS_TYPES = Boolean((process.features as { typescript?: string }).typescript);

const preloads = (paths: readonly string[]) => paths.flatMap((path) => ['--import', path]);

/**
 * How a test runs TypeScript of ours in a child process (`-e` code, a script): as the image does
 * (no tsx: the image has none) where this Node strips types, else through tsx; under the same
 * loopback guard as the test process itself, and with the routes a drill may give it
 * (loopback-routes.ts; none unless SEEDBLOCK_TEST_ROUTES is set).
 */
export const TS_NODE_ARGS: readonly string[] = [
  ...(STRIPS_TYPES ? [] : ['--import', 'tsx']),
  ...preloads(CHILD_PRELOADS.map((path) => fileURLToPath(new URL(`../../${path}`, import.meta.url)))),
];

/**
 * The node arguments that start the entry point `script` (relative to `root`) with `args`: as
 * TS_NODE_ARGS says, or, on a Node without type stripping, from its bundle (entry-bundles.ts) when
 * it is one of this checkout's bundled entry points.
 */
export function entryArgs(script: string, args: readonly string[] = [], root = REPO_ROOT): string[] {
  const bundled = STRIPS_TYPES ? undefined : bundledEntry(script, root);
  if (bundled === undefined) return [...TS_NODE_ARGS, script, ...args];
  return [...preloads(CHILD_PRELOADS.map(bundlePath)), bundlePath(bundled), ...args];
}

/**
 * How long a started entry point may take to listen: an upper bound only (tests wait for the port),
 * generous because a loaded 2-core machine has few CPU-seconds to give a start-up.
 */
export const START_BOUND_MS = 60_000;
