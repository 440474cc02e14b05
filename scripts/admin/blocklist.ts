import type { Config } from '../../runtime/config.ts';
import { CLI_ACTOR, type Store } from '../../store/index.ts';
import { seedArg } from './args.ts';
import type { Command } from './command.ts';

// blocklist list | add <seed> | remove <seed>, and detect <seed>: seeds the read API hides.

/** A command taking one <seed>, checked before anything connects. */
function seedCommand(
  usage: string,
  about: string,
  work: (store: Store, seed: number, config: Config) => Promise<unknown>,
): Command {
  return {
    usage,
    about,
    args: ['seed'],
    run: ({ args, config }) => {
      const seed = seedArg(args.seed!);
      return (store) => work(store, seed, config);
    },
  };
}

export const blocklistCommands: Record<string, Command> = {
  'blocklist list': {
    usage: 'blocklist list',
    about: 'The seeds on the permanent blocklist, lowest first',
    run: () => async (store) => ({ seeds: await store.listBlocklist() }),
  },
  'blocklist add': seedCommand('blocklist add <seed>', 'Never show this seed', (store, seed) =>
    store.addToBlocklist(seed, { actor: CLI_ACTOR }),
  ),
  'blocklist remove': seedCommand(
    'blocklist remove <seed>',
    'Show this seed again (a live block window still hides it)',
    (store, seed) => store.removeFromBlocklist(seed, { actor: CLI_ACTOR }),
  ),
  detect: seedCommand(
    'detect <seed>',
    'Record a sighting of this seed, as a client detection does',
    async (store, seed, config) => {
      const recorded = await store.recordDetection({ seed, queueMax: config.QUEUE_MAX });
      await store.recordAudit({ actor: CLI_ACTOR, action: 'detect', target: String(seed) });
      return recorded;
    },
  ),
};
