import { LABEL_MAX } from '../store/constants.ts';
import type { Registration } from '../store/index.ts';
import { formatAddress } from './address.ts';
import { discordTime, inlineCode, showMember } from './command.ts';

// A registration as one line of chat, for moderators (/servers) and for its owner (/keys).

/** Its label inert (a masked link, a mention or a timestamp tag a claimant wrote stays plain text). */
export function registrationLabel(r: Registration): string {
  return r.clientName ? inlineCode(r.clientName, LABEL_MAX) : '(no label)';
}

export function registrationLine(
  r: Registration,
  { owner = false, issued = false }: { owner?: boolean; issued?: boolean } = {},
): string {
  const address = r.ip ? formatAddress(r.ip, r.port) : 'any address';
  const lastReport = r.lastReportAt ? discordTime(r.lastReportAt) : 'never';
  return [
    registrationLabel(r),
    r.kind,
    address,
    ...(issued ? [`issued ${discordTime(r.issuedAt)}`] : []),
    `last report ${lastReport}`,
    // Chat users own keys by their id (shown as a mention); the CLI's owners are names an
    // operator typed, shown inert like every other chosen text.
    ...(owner && r.owner ? [`owner ${showMember(r.owner, LABEL_MAX)}`] : []),
    `\`${r.serverId}\``,
  ].join(' · ');
}
