import { AUDIT_MAX_AGE_MS, AUDIT_MAX_ENTRIES } from '../../store/index.ts';
import { JsonLines, type Command } from './command.ts';

// audit list [--actor <id|cli>] [--target <target>]: the audit trail, newest first, as JSON lines.

const DAYS = AUDIT_MAX_AGE_MS / 86_400_000;

export const auditCommands: Record<string, Command> = {
  'audit list': {
    usage: 'audit list [--actor <discord user id|cli>] [--target <server id|seed|code|version>]',
    about:
      `Audited actions (moderators, owners, this CLI), newest first, one JSON line each; the last ` +
      `${AUDIT_MAX_ENTRIES} of at most ${DAYS} days are kept`,
    options: ['actor', 'target'],
    run:
      ({ options }) =>
      async (store) =>
        new JsonLines(await store.listAudit({ actor: options.actor, target: options.target })),
  },
};
