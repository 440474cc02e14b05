// The viewer's build as the API serves it: the page shells and every asset with its precompressed
// copies, read into memory (about 100 KB) and read again only when dist/index.html changes (a
// rebuild while running).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';

export interface ViewerAsset {
  type: string;
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

export interface ViewerBuild {
  shell: string;
  /** The HTML 404 page (older builds have none). */
  notFound?: string;
  assets: Map<string, ViewerAsset>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
};

const CODED = { '.br': 'br', '.gz': 'gzip' } as const;

function readAssets(dir: string, sourceMaps: boolean): Map<string, ViewerAsset> {
  const assets = new Map<string, ViewerAsset>();
  const names = readdirSync(dir);
  for (const name of names) {
    const type = TYPES[extname(name)];
    // Source maps hold the whole source: public only when VIEWER_SOURCE_MAPS asks.
    if (type === undefined || (name.endsWith('.map') && !sourceMaps)) continue;
    assets.set(name, { type, identity: readFileSync(join(dir, name)) });
  }
  for (const name of names) {
    const coding = CODED[extname(name) as keyof typeof CODED];
    const asset = coding && assets.get(name.slice(0, -extname(name).length));
    if (asset) asset[coding] = readFileSync(join(dir, name));
  }
  return assets;
}

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * What `read` makes of a build file, read again only when the file changed (a rebuild while
 * running); undefined while the file is missing or `read` fails (a rebuild replacing it now).
 */
export function loadOnChange<T>(file: string, read: () => T): () => T | undefined {
  let cached: { mtimeMs: number; value: T } | undefined;
  return () => {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
      if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, value: read() };
    } catch {
      cached = undefined;
      return undefined;
    }
    return cached.value;
  };
}

/** Returns the current build, or undefined while none is there. */
export function viewerBuildLoader(distDir: string, sourceMaps: boolean): () => ViewerBuild | undefined {
  const index = join(distDir, 'index.html');
  return loadOnChange(index, () => ({
    shell: readFileSync(index, 'utf8'),
    notFound: readOptional(join(distDir, '404.html')),
    assets: readAssets(join(distDir, 'assets'), sourceMaps),
  }));
}
