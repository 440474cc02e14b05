import { statSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The order files start in. A run on two cores ends when its longest file does, so the longest
// start first (longest-processing-time first), whatever their project: the browser files and the
// drills named below, then every other file by size (a fair stand-in for its run time). Projects
// still go by `sequence.groupOrder`. Vitest's own sequencer starts the longest first too, but only
// from the durations of an earlier run, which a fresh clone does not have.

/** Files that take the longest on a loaded 2-core machine, longest first (the slowest-files list). */
const LONGEST = [
  'test/e2e/viewer-player.test.ts',
  'test/e2e/viewer-ux.test.ts',
  'test/bot/never-late.test.ts',
  'test/e2e/viewer.test.ts',
  'test/scripts/supervisor/orphans.test.ts',
  'test/drills/fuzz.test.ts',
  'test/drills/sentinel.test.ts',
  'test/api/http/rate-keys.test.ts',
  'test/bot/moderation.test.ts',
  'test/drills/failover-lag.test.ts',
];

const rank = (spec: TestSpecification): number => {
  const at = LONGEST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
  return at === -1 ? LONGEST.length : at;
};

export default class LongestFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const size = new Map(files.map((f) => [f, statSync(f.moduleId).size]));
    return Promise.resolve(
      [...files].sort(
        (a, b) =>
          a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
          rank(a) - rank(b) ||
          size.get(b)! - size.get(a)!,
      ),
    );
  }
}
