// Regenerates generator/data/prefab-features.json from a map dump (a development tool, not run by the
// service). Usage: npx tsx generator/derive-tables.ts [path/to/map-<seed>.json]

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deriveFeatureTables, type MapDump } from './derive-features.ts';

const here = import.meta.dirname;
const source = process.argv[2] ?? path.resolve(here, '../../shared/reference/dumps/map-224593721.json');
const target = path.resolve(here, 'data/prefab-features.json');

const dump = JSON.parse(readFileSync(source, 'utf8')) as MapDump;
const tables = deriveFeatureTables(dump);
writeFileSync(target, `${JSON.stringify(tables, null, 2)}\n`);
const prefabs = Object.entries(tables.prefabs);
console.log(
  `wrote ${path.relative(process.cwd(), target)}: ${prefabs.length} prefabs, ` +
    `${prefabs.reduce((n, [, p]) => n + p.spawns.length, 0)} spawn points, ` +
    `${prefabs.reduce((n, [, p]) => n + p.doors.length, 0)} doors`,
);
