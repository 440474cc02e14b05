// Where the viewer's build writes and the API reads: one path for both.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DIST_DIR = join(dirname(fileURLToPath(import.meta.url)), 'dist');
