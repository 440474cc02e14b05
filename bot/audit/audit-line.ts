import { CLI_ACTOR, type AuditEntry } from '../../store/index.ts';
import { discordTime, inlineCode, isDiscordId, showMember } from '../command.ts';

// One audited action as one line of the audit channel: when, who, what, to which target. No secret
// (claim codes are never shown, nor keys), and mentions only of the members it names.

function who(actor: string): string {
  return actor === CLI_ACTOR ? 'The operator (CLI)' : showMember(actor);
}

const forOwner = (owner: string | undefined, word = 'for') => (owner ? ` ${word} ${showMember(owner)}` : '');

function what({ action, actor, target, owner, review }: AuditEntry): string {
  const own = owner !== undefined && owner === actor;
  switch (action) {
    case 'review.approve':
    case 'review.reject':
      return `${action === 'review.approve' ? 'approved' : 'rejected'} claim review \`${review ?? '?'}\`${forOwner(owner, 'of a code requested by')}`;
    case 'registration.revoke':
      return own
        ? `revoked their own key \`${target}\``
        : `revoked \`${target}\`${forOwner(owner, 'owned by')}`;
    case 'blocklist.add':
      return `added seed ${target} to the blocklist`;
    case 'blocklist.remove':
      return `removed seed ${target} from the blocklist`;
    case 'minimum-version.set':
      return `set the minimum plugin version to ${inlineCode(target, 32)}`;
    case 'minimum-version.clear':
      return `cleared the minimum plugin version (it was ${inlineCode(target, 32)})`;
    case 'code.issue':
      return `issued a claim code${forOwner(owner)}`;
    case 'code.cancel':
      return own ? 'cancelled their own claim code' : `cancelled a claim code${forOwner(owner, 'of')}`;
    case 'httpkey.issue':
      return `issued HTTP key \`${target}\`${forOwner(owner)}`;
    case 'detect':
      return `recorded a sighting of seed ${target}`;
    case 'maps.reindex':
      return 'reindexed the maps';
  }
}

/** The message body of an entry's line: mentions limited to the members it names, never roles or everyone. */
export function auditLine(entry: AuditEntry) {
  const users = [...new Set([entry.actor, entry.owner].filter(isDiscordId))];
  return {
    content: `${discordTime(entry.at, 'f')} ${who(entry.actor)} ${what(entry)}.`,
    allowed_mentions: { parse: [], users },
  };
}
