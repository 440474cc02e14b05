import { execFileSync } from 'node:child_process';

// Tools the project runs but does not ship (redis-server for `npm start` and `npm test`, wrk for
// `npm run bench`) come from Debian's packages: installed when missing and we are root, else the
// error says what to run.

/** Whether `command` is on the PATH (`wrk -v`, say, exits 1, so it is not run to find out). */
function installed(command: string): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v "$1"', 'sh', command], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Makes sure `command` is installed, installing Debian package `pkg` when missing and we are root. */
export function ensureDebianPackage(
  command: string,
  pkg: string,
  log: (line: string) => void = console.error,
) {
  if (installed(command)) return;
  const install = `apt-get update && apt-get install -y ${pkg}`;
  if (process.getuid?.() !== 0) {
    throw new Error(`${command} is not installed. Install it with:\n  sudo ${install}`);
  }
  log(`${command} is missing; installing Debian package ${pkg} ...`);
  // From the package lists already on the machine when they know it (no download of every list);
  // refreshed only when they do not (a fresh image has none) or name what the mirror no longer has.
  execFileSync('sh', ['-c', `apt-get install -y ${pkg} >/dev/null 2>&1 || { ${install}; } >/dev/null`], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (!installed(command)) throw new Error(`installing ${pkg} failed; run: ${install}`);
}
