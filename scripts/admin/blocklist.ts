import { seedArg } from './args.ts';
import type { Command } from './command.ts';

// blocklist list | add <seed> | remove <seed>, and detect <seed>: seeds the read API hides.

export const blocklistCommands: Record<string, Command> = {
  'blocklist list': {
    usage: 'blocklist list',
    about: 'The seeds on the permanent blocklist, lowest first',
    run: () => async (store) => ({ seeds: await store.listBlocklist() }),
  },
  'blocklist add': {
    usage: 'blocklist add <seed>',
    about: 'Never show this seed',
    args: ['seed'],
    run: ({ args }) => {
      const seed = seedArg(args.seed!);
      return (store) => store.addToBlocklist(seed);
    },
  },
  'blocklist remove': {
    usage: 'blocklist remove <seed>',
    about: 'Show this seed again (a live block window still hides it)',
    args: ['seed'],
    run: ({ args }) => {
      const seed = seedArg(args.seed!);
      return (store) => store.removeFromBlocklist(seed);
    },
  },
  detect: {
    usage: 'detect <seed>',
    about: 'Record a sighting of this seed, as a client detection does',
    args: ['seed'],
    run: ({ args, config }) => {
      const seed = seedArg(args.seed!);
      return (store) => store.recordDetection({ seed, queueMax: config.QUEUE_MAX });
    },
  },
};
