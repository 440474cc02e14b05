// The files the image holds, assembled in a folder from this checkout as the Dockerfile's runtime
// stage (its last) copies them: its COPY lines are read from the Dockerfile, so the two cannot
// drift. A COPY from the build context passes .dockerignore as `podman build .` does; one from an
// earlier stage takes that stage's path from the checkout (the viewer's build must be there:
// ensureViewerBuilt); the runtime dependencies are a symlink to the checkout's node_modules. What
// lands outside WORKDIR (system files such as fonts) is left to the machine the files run on.
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { basename, dirname, join, posix, relative } from 'node:path';

export interface Copy {
  /** The stage it copies from; undefined: the build context. */
  from: string | undefined;
  sources: string[];
  /** Relative to the stage's WORKDIR; ends with '/' when it names a folder. */
  dest: string;
}

/** The runtime stage's COPY instructions (and its WORKDIR), in order. */
export function runtimeCopies(dockerfile: string): { workdir: string; copies: Copy[] } {
  const lines = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stage = lines.slice(lines.findLastIndex((l) => /^FROM\s/i.test(l)));
  const workdir = stage.findLast((l) => /^WORKDIR\s/i.test(l))?.split(/\s+/)[1] ?? '/';
  const copies = stage
    .filter((l) => /^COPY\s/i.test(l))
    .map((l) => {
      const words = l.split(/\s+/).slice(1);
      if (words[0]?.startsWith('[')) throw new Error(`COPY in JSON form is not read here: ${l}`);
      const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
      const paths = words.filter((w) => !w.startsWith('--'));
      const dest = paths.pop()!;
      const inWorkdir = posix.normalize(posix.isAbsolute(dest) ? posix.relative(workdir, dest) || '.' : dest);
      return {
        from,
        sources: paths,
        dest: dest.endsWith('/') ? `${inWorkdir.replace(/\/$/, '')}/` : inWorkdir,
      };
    });
  return { workdir, copies };
}

/** A .dockerignore pattern as a regular expression (`**` any depth, `*` and `?` within a name). */
function patternRe(pattern: string): RegExp {
  const parts = pattern.replace(/^\//, '').split(/(\*\*\/|\*\*|\*|\?)/);
  const re = parts
    .map((p) =>
      p === '**/'
        ? '(?:.*/)?'
        : p === '**'
          ? '.*'
          : p === '*'
            ? '[^/]*'
            : p === '?'
              ? '[^/]'
              : p.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${re}$`);
}

/**
 * Whether a path of the build context reaches the build: the last rule matching it or a folder
 * above it decides (`!` lets in), as Docker and podman read .dockerignore.
 */
export function contextFilter(dockerignore: string): (path: string) => boolean {
  const rules = dockerignore
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => ({ allow: l.startsWith('!'), re: patternRe(l.replace(/^!/, '')) }));
  return (path) => {
    const prefixes = path.split('/').map((_, i, names) => names.slice(0, i + 1).join('/'));
    let allowed = true;
    for (const rule of rules) if (prefixes.some((p) => rule.re.test(p))) allowed = rule.allow;
    return allowed;
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/**
 * Copies into `into` what the runtime stage of `root`'s Dockerfile copies into its WORKDIR.
 * Returns the files placed there (paths relative to `into`; node_modules as one entry).
 */
export function assembleImageFiles(root: string, into: string): string[] {
  const { workdir, copies } = runtimeCopies(readFileSync(join(root, 'Dockerfile'), 'utf8'));
  const inContext = contextFilter(readFileSync(join(root, '.dockerignore'), 'utf8'));
  const placed: string[] = [];
  const place = (source: string, target: string): void => {
    mkdirSync(dirname(join(into, target)), { recursive: true });
    cpSync(join(root, source), join(into, target));
    placed.push(target);
  };
  for (const { from, sources, dest } of copies) {
    // Outside WORKDIR: the system's own files (fonts), which this machine has of its own.
    if (dest.startsWith('../')) continue;
    for (const path of sources) {
      // An earlier stage's /app is this checkout (built as its stages build it).
      const source = from ? posix.relative(workdir, path) : posix.normalize(path);
      if (source.startsWith('..')) throw new Error(`COPY --from=${from} ${path}: not under ${workdir}`);
      const toFolder = dest.endsWith('/') || sources.length > 1;
      const target = toFolder ? posix.join(dest, basename(source)) : dest;
      if (source === 'node_modules') {
        symlinkSync(join(root, source), join(into, target));
        placed.push(target);
      } else if (statSync(join(root, source)).isDirectory()) {
        // A folder's contents land in the destination, as COPY does.
        for (const file of filesUnder(join(root, source))) {
          const rel = relative(root, file);
          if (from || inContext(rel)) place(rel, posix.join(dest, relative(join(root, source), file)));
        }
      } else if (from || inContext(source)) place(source, target);
    }
  }
  return placed;
}
