import { InteractionResponseType, MessageFlags } from 'discord.js';
import type { FakeDiscord, MessageBody } from './fake-discord.ts';
import type { RawInteraction } from './interactions.ts';

export type { MessageBody } from './fake-discord.ts';

export interface CallbackBody {
  type: InteractionResponseType;
  data?: MessageBody;
}

/** The value of an embed field of the message's first embed. */
export function embedField(body: MessageBody | undefined, name: string): string | undefined {
  return body?.embeds?.[0]?.fields?.find((f) => f.name === name)?.value;
}

/** The one interaction response the bot sent for `payload`. */
export function responseTo(discord: FakeDiscord, payload: RawInteraction): CallbackBody {
  const callbacks = discord.callbacks(payload.id);
  if (callbacks.length !== 1)
    throw new Error(`expected one response to ${payload.id}, got ${callbacks.length}`);
  return callbacks[0]!.body as CallbackBody;
}

/**
 * The content of the ephemeral answer to `payload`: its reply, or, for a command whose write may
 * wait on replicas, the edit of its deferred (ephemeral) reply. Fails the test for anything else.
 */
export function ephemeralReply(discord: FakeDiscord, payload: RawInteraction): string {
  const body = responseTo(discord, payload);
  if (
    body.type !== InteractionResponseType.ChannelMessageWithSource &&
    body.type !== InteractionResponseType.DeferredChannelMessageWithSource
  ) {
    throw new Error(`expected a message reply, got response type ${body.type}`);
  }
  if (((body.data?.flags ?? 0) & MessageFlags.Ephemeral) === 0) throw new Error('the reply is not ephemeral');
  if (body.type === InteractionResponseType.ChannelMessageWithSource) return body.data?.content ?? '';
  const edits = discord.find((r) => r.method === 'PATCH' && r.path === originalMessage(payload));
  if (edits.length !== 1) throw new Error(`expected one edit of the deferred reply, got ${edits.length}`);
  return (edits[0]!.body as MessageBody).content ?? '';
}

/** Where the bot edits its (deferred) answer to `payload`, or the message its button is on. */
export function originalMessage(payload: RawInteraction): string {
  return `/webhooks/${payload.application_id}/${payload.token}/messages/@original`;
}
