import { http, HttpResponse, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import { APPLICATION_ID, BOT_USER_ID, snowflake } from './snowflakes.ts';

// Discord's REST API, answered in-process by msw: every request the bot makes is recorded, and
// anything not handled here fails the test (onUnhandledRequest: 'error'). Nothing leaves the machine.

export const API = 'https://discord.com/api/v10';

/** The parts of a message body (sent or updated) the tests look at. */
export interface MessageBody {
  content?: string;
  flags?: number;
  embeds?: { title?: string; fields?: { name: string; value: string }[] }[];
  components?: {
    type: number;
    components: { type: number; style: number; custom_id: string; disabled?: boolean; label: string }[];
  }[];
  allowed_mentions?: { parse: string[]; users?: string[]; roles?: string[] };
}

export interface CapturedRequest {
  method: string;
  /** The path after /api/v10, e.g. /channels/1/messages. */
  path: string;
  params: Record<string, string>;
  headers: Headers;
  body: unknown;
  /** What the fake answered (a message, the registered commands), when it answered with JSON. */
  response?: unknown;
}

/** The bot's own user, as Discord shows it (message author, READY). */
export const BOT_USER = {
  id: BOT_USER_ID,
  username: 'seedblock',
  discriminator: '0',
  global_name: null,
  avatar: null,
  bot: true,
};

/** A message as Discord returns it, built from what the bot sent. */
export function messageFrom(channelId: string, sent: Record<string, unknown>, id = snowflake()) {
  return {
    id,
    type: 0,
    channel_id: channelId,
    author: BOT_USER,
    content: '',
    timestamp: new Date().toISOString(),
    edited_timestamp: null as string | null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [] as { title?: string; fields?: { name: string; value: string }[] }[],
    components: [] as NonNullable<MessageBody['components']>,
    pinned: false,
    flags: 0,
    /** As the bot sent it (Discord does not echo it back; the fakes keep it for the tests). */
    allowed_mentions: undefined as { parse: string[]; users?: string[]; roles?: string[] } | undefined,
    ...sent,
  };
}

export type FakeMessage = ReturnType<typeof messageFrom>;

/** Discord's answer to an edit of a message it does not hold (in that channel). */
export const UNKNOWN_MESSAGE = { message: 'Unknown Message', code: 10008 };

/** Applies an edit to a held message as Discord does; null when there is no such message. */
export function editMessage(
  messages: Map<string, FakeMessage>,
  channelId: string,
  messageId: string,
  body: unknown,
): FakeMessage | null {
  const held = messages.get(messageId);
  if (!held || held.channel_id !== channelId) return null;
  const edited = {
    ...held,
    ...(body as Record<string, unknown>),
    edited_timestamp: new Date().toISOString(),
  };
  messages.set(edited.id, edited);
  return edited;
}

async function readBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function fakeDiscord() {
  const requests: CapturedRequest[] = [];
  const waiters = new Set<() => void>();
  /** Channel messages as Discord holds them now: posted, then edited; deleted ones are gone. */
  const messages = new Map<string, FakeMessage>();

  const capture = async (
    request: Request,
    params: Record<string, string | readonly string[] | undefined>,
  ) => {
    const captured: CapturedRequest = {
      method: request.method,
      // Decoded: discord.js writes `@original` as `%40original`.
      path: decodeURIComponent(new URL(request.url).pathname).replace(/^\/api\/v10/, ''),
      params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
      headers: request.headers,
      body: await readBody(request),
    };
    requests.push(captured);
    for (const wake of waiters) wake();
    return captured;
  };
  const answer = (captured: CapturedRequest, body: JsonBodyType) => {
    captured.response = body;
    return HttpResponse.json(body);
  };

  const server = setupServer(
    // Interaction responses (reply, update): 204 unless with_response is asked for.
    http.post(`${API}/interactions/:id/:token/callback`, async ({ request, params }) => {
      await capture(request, params);
      return new HttpResponse(null, { status: 204 });
    }),
    // Follow-up messages and edits of interaction responses.
    http.post(`${API}/webhooks/:appId/:token`, async ({ request, params }) => {
      const captured = await capture(request, params);
      return answer(captured, messageFrom(snowflake(), captured.body as Record<string, unknown>));
    }),
    http.patch(`${API}/webhooks/:appId/:token/messages/:messageId`, async ({ request, params }) => {
      const captured = await capture(request, params);
      return answer(
        captured,
        messageFrom(snowflake(), captured.body as Record<string, unknown>, String(params.messageId)),
      );
    }),
    // Messages the bot posts itself (review requests), and its edits of them.
    http.post(`${API}/channels/:channelId/messages`, async ({ request, params }) => {
      const captured = await capture(request, params);
      const message = messageFrom(String(params.channelId), captured.body as Record<string, unknown>);
      messages.set(message.id, message);
      return answer(captured, message);
    }),
    http.patch(`${API}/channels/:channelId/messages/:messageId`, async ({ request, params }) => {
      const captured = await capture(request, params);
      const edited = editMessage(messages, String(params.channelId), String(params.messageId), captured.body);
      if (!edited) return HttpResponse.json(UNKNOWN_MESSAGE, { status: 404 });
      return answer(captured, edited);
    }),
    // Slash command registration (bulk overwrite), in a guild or globally.
    http.put(`${API}/applications/:appId/guilds/:guildId/commands`, async ({ request, params }) => {
      const captured = await capture(request, params);
      return answer(captured, registered(captured.body, String(params.guildId)));
    }),
    http.put(`${API}/applications/:appId/commands`, async ({ request, params }) => {
      const captured = await capture(request, params);
      return answer(captured, registered(captured.body, null));
    }),
  );

  return {
    server,
    requests,
    messages,
    /** Requests matching `filter`, in order. */
    find(filter: (r: CapturedRequest) => boolean): CapturedRequest[] {
      return requests.filter(filter);
    },
    /** The interaction responses sent for one interaction id. */
    callbacks(interactionId: string): CapturedRequest[] {
      return requests.filter((r) => r.path === `/interactions/${interactionId}/${r.params.token}/callback`);
    },
    /** Resolves once `count` requests match (for work the bot does on its own, like posting reviews). */
    async waitFor(
      filter: (r: CapturedRequest) => boolean,
      count = 1,
      timeoutMs = 5_000,
    ): Promise<CapturedRequest[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = requests.filter(filter);
        if (found.length >= count) return found;
        if (Date.now() > deadline)
          throw new Error(`waited ${timeoutMs} ms for ${count} matching Discord requests`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, 50);
          waiters.add(wake);
        });
      }
    },
    reset() {
      requests.length = 0;
      messages.clear();
    },
  };
}

export type FakeDiscord = ReturnType<typeof fakeDiscord>;

/** The commands of a bulk overwrite, as Discord answers it. */
export function registered(body: unknown, guildId: string | null) {
  return (body as Record<string, unknown>[]).map((command) => ({
    ...command,
    id: snowflake(),
    application_id: APPLICATION_ID,
    version: snowflake(),
    ...(guildId ? { guild_id: guildId } : {}),
  }));
}
