// `npm run --silent generate -- <seed>`: prints the map of a seed as one line of JSON.

import { generateMap, isValidSeed } from './facility.ts';

const USAGE = 'usage: npm run --silent generate -- <seed>   (seed: an integer 1..2147483647)';

function main(args: string[]): number {
  if (args.length !== 1) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const text = args[0]!;
  const seed = /^[0-9]{1,10}$/.test(text) ? Number(text) : NaN;
  if (!isValidSeed(seed)) {
    process.stderr.write(`invalid seed ${JSON.stringify(text)}: expected an integer 1..2147483647\n`);
    return 2;
  }
  process.stdout.write(`${JSON.stringify(generateMap(seed))}\n`);
  return 0;
}

// exitCode rather than exit(): lets a piped stdout flush completely.
process.exitCode = main(process.argv.slice(2));
