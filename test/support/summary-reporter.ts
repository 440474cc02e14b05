import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files the summary names. */
const SLOWEST = 10;

/** A file's time in its worker: importing it (and what it imports), its setup files, its hooks and tests. */
function fileMs(module: TestModule): number {
  const d = module.diagnostic();
  return d.collectDuration + d.setupDuration + d.duration;
}

/**
 * Ends the run with the slowest files (so the next regression shows in every log) and one plain
 * line, `tests: N passed, N failed, N skipped`, that any CI log reader understands, whatever it
 * knows of vitest's own summary.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    const slowest = [...testModules]
      .sort((a, b) => fileMs(b) - fileMs(a))
      .slice(0, SLOWEST)
      .map((m) => {
        const file = relative(m.project.config.root, m.moduleId);
        const project = m.project.name ? ` (${m.project.name})` : '';
        return `  ${(fileMs(m) / 1000).toFixed(1).padStart(6)} s  ${file}${project}`;
      });
    if (slowest.length > 0) process.stdout.write(`\nslowest files:\n${slowest.join('\n')}\n`);
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
