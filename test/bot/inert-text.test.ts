// Chat text a claimant or key holder chose (issue 22, finding 5) is shown inert: inside inline
// code, without backticks, control, bidi or zero-width characters, cut to its spec length.
import { describe, expect, it } from 'vitest';
import { inlineCode } from '../../bot/command.ts';

describe('inlineCode', () => {
  it.each([
    ['a masked link', '[Approve](https://evil.example/x)'],
    ['an angle-bracket link', '<https://evil.example/x>'],
    ['a role mention', '<@&1>'],
    ['a user mention', '<@1>'],
    ['a channel mention', '<#1>'],
    ['a timestamp tag', '<t:1:R>'],
  ])('%s is shown as one code span, unchanged inside it', (_name, text) => {
    expect(inlineCode(text, 64)).toBe(`\`${text}\``);
  });

  it.each([
    ['a backtick that would end the span', 'a`<@1>`b', 'a <@1> b'],
    ['U+202E (right-to-left override)', 'abc\u202Edef', 'abc def'],
    ['bidi isolates and marks', '\u2066x\u2069\u200Fy', 'x y'],
    ['zero-width characters', 'a\u200Bb\u200Dc\uFEFF', 'a b c'],
    ['control characters', 'a\u0000b\nc\u007F', 'a b c'],
  ])('%s is removed', (_name, text, shown) => {
    expect(inlineCode(text, 64)).toBe(`\`${shown}\``);
  });

  it('cuts to the spec length', () => {
    expect(inlineCode('n'.repeat(64), 64)).toBe(`\`${'n'.repeat(64)}\``);
    expect(inlineCode('n'.repeat(65), 64)).toBe(`\`${'n'.repeat(63)}…\``);
  });
});
