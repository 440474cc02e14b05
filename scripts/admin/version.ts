import { CLI_ACTOR, SemverSchema } from '../../store/index.ts';
import { UsageError, type Command } from './command.ts';

// version show | set-minimum <x.y.z> | clear-minimum: spec 2.9's version info.

export const versionCommands: Record<string, Command> = {
  'version show': {
    usage: 'version show',
    about: 'The latest release, the minimum plugin version and the download URL',
    run: () => (store) => store.getVersionInfo(),
  },
  'version set-minimum': {
    usage: 'version set-minimum <x.y.z>',
    about: 'Refuse plugins below this version (426 on claim and report)',
    args: ['x.y.z'],
    run: ({ args }) => {
      const version = SemverSchema.safeParse(args['x.y.z']);
      if (!version.success) throw new UsageError('the version must look like 1.2.0 (three numbers, no "v")');
      return (store) => store.setMinimumVersion(version.data, { actor: CLI_ACTOR });
    },
  },
  'version clear-minimum': {
    usage: 'version clear-minimum',
    about: 'Allow every plugin version',
    run: () => (store) => store.clearMinimumVersion({ actor: CLI_ACTOR }),
  },
};
