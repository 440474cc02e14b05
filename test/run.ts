// `npm test`: the type check and the lint (package.json `typecheck` and `lint`) run beside vitest
// instead of before it, at low priority (nice 10), so they take the CPU time the tests leave
// idle while they wait on Redis, HTTP and child processes, not time of their own. Vitest's output
// comes first; each check's follows once it is done, with how it ended. Any failure fails the run.
// Arguments go to vitest (`npm test -- test/api/auth.test.ts`, `npm test -- --project e2e`).
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

interface Outcome {
  name: string;
  code: number;
  output: string;
  seconds: number;
}

const started = performance.now();
const VITEST = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

// A stop asked of the run (CI cancelling, Ctrl-C) reaches vitest and the checks too.
const children = new Set<ChildProcess>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exitCode = 1;
  });
}

/** `command` as a child; `exit` resolves with its exit code (1 for a signal or a spawn error). */
function start(command: string, args: string[], options: SpawnOptions) {
  const child = spawn(command, args, options);
  children.add(child);
  const exit = new Promise<number>((resolve) => {
    child.on('error', (err) => {
      process.stderr.write(`${command}: ${String(err)}\n`);
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
  }).finally(() => children.delete(child));
  return { child, exit };
}

/** `npm run --silent <script>` at low priority, its output kept for the end. */
async function check(script: string): Promise<Outcome> {
  const { child, exit } = start('nice', ['-n', '10', 'npm', 'run', '--silent', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await exit;
  return { name: script, code, output, seconds: (performance.now() - started) / 1000 };
}

const checks = Promise.all([check('typecheck'), check('lint')]);
const testsCode = await start(process.execPath, [VITEST, 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
}).exit;
let failed = testsCode !== 0;
for (const outcome of await checks) {
  const ok = outcome.code === 0;
  failed ||= !ok;
  const how = ok ? 'passed' : `FAILED (exit ${outcome.code})`;
  process.stdout.write(`\n${outcome.name} ${how}, done ${outcome.seconds.toFixed(0)} s into the run\n`);
  if (!ok || outcome.output.trim() !== '') process.stdout.write(outcome.output);
}
if (failed) process.exitCode = 1;
