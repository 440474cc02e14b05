import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { SEED_MAX, SEED_MIN, type Store } from '../../store/index.ts';
import type { BotCommand, BotReply } from '../command.ts';

// /blocklist add|remove <seed> (moderators): the permanent blocklist the read API honours.

export const definition = new SlashCommandBuilder()
  .setName('blocklist')
  .setDescription('Moderators: seeds the map viewer never shows')
  .setContexts(InteractionContextType.Guild)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addSubcommand((s) =>
    s
      .setName('add')
      .setDescription('Never show this seed')
      .addIntegerOption((o) =>
        o
          .setName('seed')
          .setDescription('The seed')
          .setRequired(true)
          .setMinValue(SEED_MIN)
          .setMaxValue(SEED_MAX),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('remove')
      .setDescription('Show this seed again')
      .addIntegerOption((o) =>
        o
          .setName('seed')
          .setDescription('The seed')
          .setRequired(true)
          .setMinValue(SEED_MIN)
          .setMaxValue(SEED_MAX),
      ),
  )
  .toJSON();

const badSeed = (seed: number) =>
  !Number.isSafeInteger(seed) || seed < SEED_MIN || seed > SEED_MAX
    ? { content: `The seed must be an integer ${SEED_MIN}..${SEED_MAX}.` }
    : null;

type Change = { seed: number; actor: string };

export async function addToBlocklist(store: Store, { seed, actor }: Change): Promise<BotReply> {
  const refused = badSeed(seed);
  if (refused) return refused;
  const { added } = await store.addToBlocklist(seed, { actor });
  return {
    content: added
      ? `Seed ${seed} is now on the blocklist: the map viewer no longer shows it.`
      : `Seed ${seed} was already on the blocklist.`,
  };
}

export async function removeFromBlocklist(store: Store, { seed, actor }: Change): Promise<BotReply> {
  const refused = badSeed(seed);
  if (refused) return refused;
  const { removed } = await store.removeFromBlocklist(seed, { actor });
  return {
    content: removed
      ? `Seed ${seed} is off the blocklist (a live block window still hides it until it ends).`
      : `Seed ${seed} was not on the blocklist.`,
  };
}

export const command: BotCommand = {
  definition,
  moderatorOnly: true,
  defers: true,
  execute: (interaction, { store, caller }) => {
    const change = { seed: interaction.options.getInteger('seed', true), actor: caller.userId };
    return interaction.options.getSubcommand() === 'add'
      ? addToBlocklist(store, change)
      : removeFromBlocklist(store, change);
  },
};
