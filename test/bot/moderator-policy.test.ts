import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { isModerator, moderatorName, showModerator } from '../../bot/moderators.ts';
import { parseReviewButton, reviewButtonId } from '../../bot/reviews/review-message.ts';

// The plain rules behind the buttons and moderator commands.

const policy = { moderatorRoleId: '200', guildId: '100' };
const facts = (extra: { roleIds?: string[]; permissions?: bigint | null; guildId?: string }) => ({
  guildId: '100',
  roleIds: [],
  permissions: PermissionFlagsBits.SendMessages,
  ...extra,
});

describe('isModerator', () => {
  it('accepts the role, Manage Server or Administrator in the configured guild', () => {
    expect(isModerator(facts({ roleIds: ['200'] }), policy)).toBe(true);
    expect(isModerator(facts({ permissions: PermissionFlagsBits.ManageGuild }), policy)).toBe(true);
    expect(isModerator(facts({ permissions: PermissionFlagsBits.Administrator }), policy)).toBe(true);
  });

  it('refuses everyone else, members of other guilds and DMs', () => {
    expect(isModerator(facts({ roleIds: ['300'] }), policy)).toBe(false);
    expect(isModerator(facts({ permissions: null }), policy)).toBe(false);
    expect(isModerator(facts({ guildId: '999', permissions: PermissionFlagsBits.ManageGuild }), policy)).toBe(
      false,
    );
    expect(isModerator(null, policy)).toBe(false);
  });

  it('without a configured role, only Manage Server in our guild counts', () => {
    const noRole = { moderatorRoleId: null, guildId: '100' };
    expect(isModerator(facts({ roleIds: ['200'] }), noRole)).toBe(false);
    expect(isModerator(facts({ permissions: PermissionFlagsBits.ManageGuild }), noRole)).toBe(true);
  });

  it('without a configured guild, Manage Server counts nowhere: only the role does', () => {
    const noGuild = { moderatorRoleId: '200', guildId: null };
    expect(isModerator(facts({ permissions: PermissionFlagsBits.ManageGuild }), noGuild)).toBe(false);
    expect(isModerator(facts({ roleIds: ['200'] }), noGuild)).toBe(true);
  });
});

describe('review buttons and moderator names', () => {
  it('round-trips custom ids and refuses others', () => {
    for (const action of ['approve', 'reject', 'confirm-reject', 'keep'] as const) {
      expect(parseReviewButton(reviewButtonId(action, 'abc-1'))).toEqual({ reviewId: 'abc-1', action });
    }
    expect(parseReviewButton('review:delete:abc')).toBeNull();
    expect(parseReviewButton('review:approve:')).toBeNull();
  });

  it('shows chat moderators as mentions and the CLI as it is recorded', () => {
    expect(showModerator(moderatorName({ id: '123456789012345678', username: 'alice' }))).toBe(
      '<@123456789012345678>',
    );
    expect(showModerator('operator (CLI)')).toBe('operator (CLI)');
  });
});
