import { CLI_ACTOR, SUPERSEDED_MEANING, type Store } from '../../store/index.ts';
import { ipArg, portArg } from './args.ts';
import type { Command } from './command.ts';

// code issue | list | cancel, review list | approve | reject: registering game servers by code.

async function decide(store: Store, id: string, decision: 'approved' | 'rejected') {
  const result = await store.decideReview({ id, decision, moderator: 'operator (CLI)', actor: CLI_ACTOR });
  if (result.outcome === 'unknown') throw new Error(`no review ${id}`);
  if (result.outcome === 'already' && result.decision === 'superseded')
    throw new Error(`review ${id} was superseded: ${SUPERSEDED_MEANING}`);
  if (result.outcome === 'already' && (result.decision === 'expired' || result.decision === 'cancelled'))
    throw new Error(
      `review ${id} was closed: its code ${result.decision === 'expired' ? 'expired' : 'was cancelled'}`,
    );
  if (result.outcome === 'already')
    throw new Error(`review ${id} was already ${result.decision} by ${result.moderator}`);
  return { ok: true, id, decision };
}

export const claimCommands: Record<string, Command> = {
  'code issue': {
    usage: 'code issue [--ip <ip>] [--port <port>]',
    about: 'Issue a one-time claim code, for one address if given',
    options: ['ip', 'port'],
    run: ({ options }) => {
      const expected = {
        ip: options.ip === undefined ? undefined : ipArg(options.ip),
        port: options.port === undefined ? undefined : portArg(options.port),
      };
      return (store) => store.issueClaimCode({ ...expected, actor: CLI_ACTOR });
    },
  },
  'code list': {
    usage: 'code list',
    about: 'Live claim codes, soonest expiry first (codes under review are not shown)',
    run: () => async (store) => ({ codes: await store.listClaimCodes() }),
  },
  'code cancel': {
    usage: 'code cancel <code>',
    about: 'Cancel a claim code not used yet',
    args: ['code'],
    run:
      ({ args }) =>
      async (store) => {
        const code = args.code!;
        if (!(await store.cancelClaimCode(code, { actor: CLI_ACTOR })))
          throw new Error(`no usable claim code ${code}`);
        return { ok: true, code };
      },
  },
  'review list': {
    usage: 'review list',
    about: 'Pending reviews of claims from another address than the code expected',
    run: () => async (store) => ({ reviews: await store.listReviews() }),
  },
  'review approve': {
    usage: 'review approve <id>',
    about: 'Let the reviewed address register with its code',
    args: ['id'],
    run:
      ({ args }) =>
      (store) =>
        decide(store, args.id!, 'approved'),
  },
  'review reject': {
    usage: 'review reject <id>',
    about: 'Refuse the reviewed claim',
    args: ['id'],
    run:
      ({ args }) =>
      (store) =>
        decide(store, args.id!, 'rejected'),
  },
};
