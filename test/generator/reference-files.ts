// Reference material beside the project (../shared), read by the tests only.

import { readFileSync } from 'node:fs';
import path from 'node:path';

export const REFERENCE_DIR = path.resolve(import.meta.dirname, '../../../shared/reference');

export function readReference(name: string): string {
  return readFileSync(path.join(REFERENCE_DIR, name), 'utf8');
}

export function readReferenceJson<T>(name: string): T {
  return JSON.parse(readReference(name)) as T;
}

export const DUMP_SEED = 224593721;
export const DUMP_FILE = `dumps/map-${DUMP_SEED}.json`;
