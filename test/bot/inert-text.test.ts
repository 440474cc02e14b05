// Chat text a claimant or key holder chose (issue 22, finding 5) is shown inert: inside inline
// code, without backticks, control, bidi or zero-width characters, cut to its spec length. Checked
// on inlineCode itself and on every message that shows such a text: /servers (a registration's
// label and its owner) and a claim review (the plugin version).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineCode } from '../../bot/command.ts';
import { listServers } from '../../bot/commands/servers.ts';
import { reviewMessage } from '../../bot/reviews/review-message.ts';
import { type Review, type Store } from '../../store/index.ts';
import { LABEL_MAX, VERSION_TEXT_MAX } from '../../store/constants.ts';
import { openTestStore } from '../support/test-store.ts';

// The strings of the issue: each would format, link, mention or reorder text if shown plainly.
const ACTIVE: [string, string][] = [
  ['a masked link', '[Approve](https://evil.example/x)'],
  ['an angle-bracket link', '<https://evil.example/x>'],
  ['a role mention', '<@&1>'],
  ['a user mention', '<@1>'],
  ['a channel mention', '<#1>'],
  ['a timestamp tag', '<t:1:R>'],
];
// [name, text, what is shown inside the code span]
const STRIPPED: [string, string, string][] = [
  ['a backtick that would end the span', 'a`<@1>`b', 'a<@1>b'],
  ['U+202E (right-to-left override)', 'abc\u202Edef', 'abcdef'],
  ['bidi isolates and marks', '\u2066x\u2069\u200Fy', 'xy'],
  ['zero-width characters', 'a\u200Bb\u200Dc\uFEFF', 'abc'],
  ['control characters', 'a\u0000b\nc\u007F', 'a b c'],
];
const ALL: [string, string, string][] = [
  ...ACTIVE.map(([n, t]): [string, string, string] => [n, t, t]),
  ...STRIPPED,
];

describe('inlineCode', () => {
  it.each(ACTIVE)('%s is shown as one code span, unchanged inside it', (_name, text) => {
    expect(inlineCode(text, LABEL_MAX)).toBe(`\`${text}\``);
  });

  it.each(STRIPPED)('%s is removed', (_name, text, shown) => {
    expect(inlineCode(text, LABEL_MAX)).toBe(`\`${shown}\``);
  });

  it('cuts to the spec length, never inside a surrogate pair', () => {
    expect(inlineCode('n'.repeat(64), 64)).toBe(`\`${'n'.repeat(64)}\``);
    expect(inlineCode('n'.repeat(65), 64)).toBe(`\`${'n'.repeat(63)}…\``);
    expect(inlineCode(`${'n'.repeat(62)}😀😀`, 64)).toBe(`\`${'n'.repeat(62)}…\``);
  });
});

let store: Store;
beforeAll(async () => {
  store = await openTestStore({ clock: 'system', name: 'inert' });
});
afterAll(() => store?.close());

describe('messages that show chosen text', () => {
  it.each(ALL)('/servers shows %s as a label and as an owner inert', async (_name, text, shown) => {
    const key = await store.issueHttpKey({ owner: text, label: text });
    const line = (await listServers(store)).content.split('\n').find((l) => l.includes(key.serverId));
    expect(line?.startsWith(`• \`${shown}\` · http · `), line).toBe(true);
    expect(line).toContain(` · owner \`${shown}\` · \`${key.serverId}\``);
    await store.revokeRegistration(key.serverId);
  });

  it('/servers cuts a label and an owner to the label length', async () => {
    const key = await store.issueHttpKey({ owner: 'o'.repeat(80), label: 'l'.repeat(LABEL_MAX) });
    const { content } = await listServers(store);
    expect(content).toContain(`• \`${'l'.repeat(LABEL_MAX)}\` · http`);
    expect(content).toContain(` · owner \`${'o'.repeat(LABEL_MAX - 1)}…\``);
    await store.revokeRegistration(key.serverId);
  });

  it.each(ALL)('a claim review shows %s as its plugin version inert', (_name, text, shown) => {
    for (const status of ['pending', 'approved'] as const) {
      const { embeds } = reviewMessage(review(text, status));
      const field = embeds[0]!.fields!.find((f) => f.name === 'Plugin version');
      // The masked link is longer than a version may be: cut like any other.
      const cut = shown.length > VERSION_TEXT_MAX ? `${shown.slice(0, VERSION_TEXT_MAX - 1)}…` : shown;
      expect(field?.value).toBe(`\`${cut}\``);
    }
  });

  it('a claim review cuts the plugin version to its spec length', () => {
    const field = reviewMessage(review('9'.repeat(40), 'pending')).embeds[0]!.fields!.find(
      (f) => f.name === 'Plugin version',
    );
    expect(field?.value).toBe(`\`${'9'.repeat(VERSION_TEXT_MAX - 1)}…\``);
  });
});

function review(pluginVersion: string, status: Review['status']): Review {
  return {
    id: 'r1',
    code: 'ABCDE-FGHJK',
    status,
    expectedAddress: '203.0.113.5:7777',
    actualAddress: '203.0.113.6:7777',
    reason: 'ip_mismatch',
    pluginVersion,
    createdAt: '2026-01-01T00:00:00.000Z',
    issuedBy: '234567890123456789',
    codeIssuedAt: '2025-12-31T23:50:00.000Z',
    decidedBy: status === 'pending' ? null : '123456789012345678',
    decidedAt: status === 'pending' ? null : '2026-01-01T00:10:00.000Z',
    remindedAt: null,
    messageId: null,
  };
}
