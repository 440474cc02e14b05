import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLED_ENTRIES, bundlePath } from './entry-bundles.ts';
import { STRIPS_TYPES } from './node-args.ts';
import { REPO_ROOT } from './repo.ts';

// A test child started from a bundle (entry-bundles.ts) may start others from our sources itself:
// `npm start` spawns api/main.ts, generator/main.ts, bot/main.ts and its orphan guard with its own
// node flags, which on Node 20 hold no tsx. Loaded in every test child, this starts such a process
// from its entry point's bundle instead, as its parent was. It does nothing anywhere else: where
// Node strips types, or in a process started from a bundle or from any other script (a loader
// thread costs a start-up).

const main = process.argv[1];
const entry = BUNDLED_ENTRIES.find((e) => join(REPO_ROOT, e) === main);
if (!STRIPS_TYPES && main && entry && existsSync(bundlePath(entry))) {
  const from = pathToFileURL(main).href;
  const to = pathToFileURL(bundlePath(entry)).href;
  // The hook runs on Node's loader thread, so it is handed over as source with its URLs in it.
  const hook = `export async function resolve(specifier, context, next) {
  return specifier === ${JSON.stringify(from)}
    ? { url: ${JSON.stringify(to)}, format: 'module', shortCircuit: true }
    : next(specifier, context);
}`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
}
