import { reindexMaps } from '../../generator/reindex.ts';
import type { Command } from './command.ts';

// maps reindex: the seed index as the deployed generator makes each map.

export const mapCommands: Record<string, Command> = {
  'maps reindex': {
    usage: 'maps reindex',
    about:
      "Every dumped seed's roomCount, spawns and markers as the deployed generator makes them (after a generator change; safe while serving)",
    run: () => (store) => reindexMaps(store),
  },
};
