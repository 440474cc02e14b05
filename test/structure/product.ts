import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

// What the structure checks read: the product's source files, every top-level folder but those
// below, so a new product folder is read (and must find its layer) the day it appears.

import { REPO_ROOT } from '../support/repo.ts';

/** Top-level folders with no product code: tests, benchmarks, documents, deployment, output. */
const NOT_PRODUCT = new Set(['bench', 'deploy', 'docs', 'node_modules', 'test', 'test-artifacts']);
/** Built output inside a product folder. */
const BUILT = new Set(['viewer/dist']);
const SOURCE = /\.(?:[cm]?[jt]s|tsx)$/;

function sources(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.name.startsWith('.') || BUILT.has(path)) return [];
    if (entry.isDirectory()) return dir || !NOT_PRODUCT.has(entry.name) ? sources(path) : [];
    return dir && SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every product source file, as a path from the repository's root (`store/index.ts`). */
export const PRODUCT_FILES: readonly string[] = sources('');

/** A file's path from the root, for a path on disk. */
export const fromRoot = (path: string): string => relative(REPO_ROOT, path).split('\\').join('/');

/** The part of the product a file belongs to: its top-level folder, and viewer/src apart. */
export function partOf(file: string): string {
  return file.startsWith('viewer/src/') ? 'viewer/src' : file.split('/')[0]!;
}
