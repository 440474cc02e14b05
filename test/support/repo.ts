import { fileURLToPath } from 'node:url';

/** The checkout the tests run from (with a trailing slash). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
