import { BadCursorError, CLI_ACTOR, type CredentialKind, type Store } from '../../store/index.ts';
import { kindArg, limitArg } from './args.ts';
import { UsageError, type Command } from './command.ts';

// servers list, httpkey issue | list, revoke <serverId>, windows list: registrations and the
// block windows they hold.

/** Most registrations on one page of `servers list`. */
const PAGE_MAX = 1000;

/** Without --limit, every live registration (as before paging), so nextCursor is null. */
export async function listServers(
  store: Store,
  { kind, limit, cursor }: { kind?: CredentialKind; limit?: number; cursor?: string },
) {
  if (limit === undefined && cursor === undefined) {
    const servers = await store.listRegistrations();
    return { servers: kind ? servers.filter((s) => s.kind === kind) : servers, nextCursor: null };
  }
  try {
    return await store.listRegistrationPage({ kind, limit: limit ?? PAGE_MAX, cursor });
  } catch (err) {
    if (err instanceof BadCursorError) throw new UsageError(`--cursor: ${err.message}`);
    throw err;
  }
}

export const serverCommands: Record<string, Command> = {
  'servers list': {
    usage: 'servers list [--kind <plugin|self|http>] [--limit <n>] [--cursor <c>]',
    about: `Live registrations, oldest first; with --limit (at most ${PAGE_MAX}) a page, and nextCursor for the next`,
    options: ['kind', 'limit', 'cursor'],
    run: ({ options }) => {
      const page = {
        kind: options.kind === undefined ? undefined : kindArg(options.kind),
        limit: options.limit === undefined ? undefined : limitArg(options.limit, PAGE_MAX),
        cursor: options.cursor,
      };
      return (store) => listServers(store, page);
    },
  },
  'httpkey issue': {
    usage: 'httpkey issue [--owner <name>] [--label <text>]',
    about: 'Issue an HTTP key (printed once); an owner holds at most 3 live',
    options: ['owner', 'label'],
    run:
      ({ options }) =>
      (store) =>
        store.issueHttpKey({ owner: options.owner, label: options.label, actor: CLI_ACTOR }),
  },
  'httpkey list': {
    usage: 'httpkey list [--owner <name>]',
    about: 'Live HTTP keys (never their credentials), of one owner if given',
    options: ['owner'],
    run:
      ({ options }) =>
      async (store) => ({
        keys: (await store.listRegistrations()).filter(
          (s) => s.kind === 'http' && (options.owner === undefined || s.owner === options.owner),
        ),
      }),
  },
  revoke: {
    usage: 'revoke <serverId>',
    about: 'End a registration: its key stops working',
    args: ['serverId'],
    run:
      ({ args }) =>
      async (store) => {
        const serverId = args.serverId!;
        if (!(await store.revokeRegistration(serverId, { actor: CLI_ACTOR })))
          throw new Error(`no live registration ${serverId}`);
        return { ok: true, serverId };
      },
  },
  'windows list': {
    usage: 'windows list',
    about: 'Open block windows: seed, server and until when (operator only: it ties seeds to servers)',
    run: () => async (store) => ({ windows: await store.listOpenWindows() }),
  },
};
