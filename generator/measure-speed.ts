// Rough timing of generateMap (a development tool): npx tsx generator/measure-speed.ts [maps]

import { generateMap } from './facility.ts';

const maps = Number(process.argv[2] ?? 5000);
const seeds = Array.from({ length: maps }, (_, i) => 1 + ((i * 2654435761) % 2147483647));

for (const s of seeds.slice(0, 500)) generateMap(s); // warm-up for the JIT

let t = performance.now();
for (const s of seeds) generateMap(s);
const generate = (performance.now() - t) / maps;

t = performance.now();
let bytes = 0;
for (const s of seeds) bytes += JSON.stringify(generateMap(s)).length;
const withJson = (performance.now() - t) / maps;

// First call in a fresh process includes module load (tables, layouts) only once, before this script runs.
console.log(
  `${maps} maps: generateMap ${generate.toFixed(3)} ms/map, with JSON.stringify ${withJson.toFixed(3)} ms/map ` +
    `(${Math.round(bytes / maps)} bytes/map)`,
);
