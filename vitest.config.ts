import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.ts';

// Four projects (docs/architecture.md, "Runtimes and the suite"). Most files wait on I/O (Redis,
// HTTP, child processes), so `parallel` runs three at a time on two cores, each worker keeping
// the modules it imported for its next file (isolate: false: a file costs its own work, not one
// more import of the product). `e2e` shares those workers and one Chromium. Before both:
// `serial`, one file at a time with the machine to itself (only the type check and the lint beside
// it, at nice 10): the drills that load the machine; then `timed`, two files at a time and nothing
// else: the tests that time what the spec bounds (a stop within its budget, a 503 within a second),
// which mostly wait out those bounds and which the load of the others would blur. A new file runs
// in `parallel` unless it is named in SERIAL or TIMED. The longest files start first (LongestFirst).

/** Files that need the machine to themselves, each with its reason. */
const SERIAL = [
  // 400 maps generated and flooded through two API processes: the CPU for a quarter of a minute.
  'test/drills/map-flood.test.ts',
  // Hundreds of slow sockets against short server timeouts.
  'test/api/http/slow-clients.test.ts',
];
/** Files that bound a time: readiness, 503 within a second, stops within their budget, refusals within 5 s. */
const TIMED = [
  'test/api/health.test.ts',
  'test/api/block/redis-restart.test.ts',
  'test/runtime/shutdown.test.ts',
  'test/runtime/dead-pipe.test.ts',
  'test/scripts/supervisor/group-stop.test.ts',
  'test/scripts/supervisor/refusals.test.ts',
];
// A file renamed or moved would silently leave its project: say so instead.
for (const file of [...SERIAL, ...TIMED]) {
  if (!existsSync(new URL(file, import.meta.url)))
    throw new Error(`vitest.config.ts names ${file}, which is gone`);
}
const E2E = ['test/e2e/**/*.test.ts'];

/** Workers of the parallel group (parallel and e2e): files mostly wait, so more than the 2 cores. */
const PARALLEL_WORKERS = 3;

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/support/loopback-guard.ts'],
    // Upper bounds only (every test waits for conditions): generous for a loaded machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    sequence: { sequencer: LongestFirst },
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'parallel',
          include: ['test/**/*.test.ts'],
          exclude: [...SERIAL, ...TIMED, ...E2E],
          isolate: false,
          maxWorkers: PARALLEL_WORKERS,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: E2E,
          // Merged after the root's (Redis, the viewer built): one Chromium for the project.
          globalSetup: ['test/e2e/global-setup.ts'],
          isolate: false,
          maxWorkers: PARALLEL_WORKERS,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          name: 'serial',
          include: SERIAL,
          fileParallelism: false,
          // One worker runs the files one after another, keeping its modules (each file closes
          // what it starts). Isolated, vitest would put them in its own last group, after every
          // other project: minutes at the end with one core idle, the checks long done.
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'timed',
          include: TIMED,
          isolate: false,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
