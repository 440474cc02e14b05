import { reindexMaps } from '../../generator/reindex.ts';
import { CLI_ACTOR } from '../../store/index.ts';
import type { Command } from './command.ts';

// maps reindex: the seed index as the deployed generator makes each map.

export const mapCommands: Record<string, Command> = {
  'maps reindex': {
    usage: 'maps reindex',
    about:
      "Every dumped seed's roomCount, spawns and markers as the deployed generator makes them (after a generator change; safe while serving)",
    run: () => async (store) => {
      const done = await reindexMaps(store);
      await store.recordAudit({ actor: CLI_ACTOR, action: 'maps.reindex', target: '' });
      return done;
    },
  },
};
