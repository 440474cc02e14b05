// A stand-in for Discord on loopback: its REST API (the routes the bot uses) and a WebSocket
// gateway speaking Discord's gateway protocol (v10, JSON, no compression): HELLO, IDENTIFY, READY,
// heartbeats, RESUME/RESUMED, RECONNECT, dispatches. The bot reaches it through DISCORD_API_URL;
// the gateway address comes from its GET /gateway/bot answer, as from Discord. Every request and
// gateway frame is recorded for the tests to assert on.
// It holds one guild model for every guild id: an @everyone role that may view, post, embed and
// read history, the bot a member without roles. A channel answers as a text channel of GUILD_ID
// unless a test closes it (setChannel: gone, no access, or no Send Messages for @everyone), and
// then refuses reads and posts as Discord does. Direct messages go to a DM channel per user
// (POST /users/@me/channels); a user who takes none (refuseDirectMessages) gets 50007.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  BOT_USER,
  editMessage,
  messageFrom,
  registered,
  type CapturedRequest,
  UNKNOWN_MESSAGE,
  type FakeMessage,
} from '../../bot/support/fake-discord.ts';
import { PermissionFlagsBits } from 'discord.js';
import { APPLICATION_ID, GUILD_ID, snowflake } from '../../bot/support/snowflakes.ts';

/** Gateway opcodes (discord-api-types GatewayOpcodes). */
export const OP = {
  dispatch: 0,
  heartbeat: 1,
  identify: 2,
  resume: 6,
  reconnect: 7,
  invalidSession: 9,
  hello: 10,
  heartbeatAck: 11,
} as const;

export interface GatewayFrame {
  op: number;
  d: unknown;
  s?: number | null;
  t?: string | null;
}

/** A REST request as recorded, with when it arrived (for rate-limit timing). */
export interface StandInRequest extends CapturedRequest {
  at: number;
}

interface RateLimit {
  method: string;
  path: RegExp;
  retryAfterSeconds: number;
}

export interface DiscordStandIn {
  /** The REST base to put in DISCORD_API_URL. */
  readonly apiUrl: string;
  readonly requests: StandInRequest[];
  /** Frames the bot sent on the gateway, in order (identify, resume, heartbeats). */
  readonly received: GatewayFrame[];
  /** Channel messages as Discord holds them now. */
  readonly messages: Map<string, FakeMessage>;
  /**
   * Sends a dispatch (op 0) on the session, with the next sequence number; while the bot is
   * reconnecting it gets it when it resumes.
   */
  dispatch(t: string, d: unknown): void;
  /** Ends the gateway connection without a close frame (as a network drop does). */
  drop(): void;
  /** Asks the bot to reconnect and resume (op 7 RECONNECT), as Discord does before moving it. */
  reconnect(): void;
  /** Answers the next request matching with 429 and this retry_after (seconds). */
  rateLimitNext(method: string, path: RegExp, retryAfterSeconds: number): void;
  /** How a channel answers from now on ('open', the default, is a text channel of GUILD_ID). */
  setChannel(channelId: string, access: ChannelAccess): void;
  /** This user takes no direct messages: sending one answers 403, code 50007. */
  refuseDirectMessages(userId: string): void;
  /** The direct messages the bot sent to a user, in order. */
  directMessages(userId: string): FakeMessage[];
  /** How often the bot tried to send a user a direct message (refused ones too). */
  directMessageAttempts(userId: string): number;
  /** Resolves once `count` things match what `read` returns, within `timeoutMs`. */
  waitFor<T>(read: () => T[], count?: number, what?: string, timeoutMs?: number): Promise<T[]>;
  close(): Promise<void>;
}

const HEARTBEAT_INTERVAL_MS = 1_000;

/** How a channel answers: open, gone (404 10003), closed to the bot (403 50001), or read-only for it. */
export type ChannelAccess = 'open' | 'gone' | 'no-access' | 'no-send';

const EVERYONE_PERMISSIONS =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.ReadMessageHistory;

const REFUSALS: Record<Exclude<ChannelAccess, 'open'>, [number, { message: string; code: number }]> = {
  gone: [404, { message: 'Unknown Channel', code: 10003 }],
  'no-access': [403, { message: 'Missing Access', code: 50001 }],
  'no-send': [403, { message: 'Missing Permissions', code: 50013 }],
};

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export async function startDiscordStandIn(): Promise<DiscordStandIn> {
  const requests: StandInRequest[] = [];
  const received: GatewayFrame[] = [];
  const messages = new Map<string, FakeMessage>();
  const rateLimits: RateLimit[] = [];
  const channels = new Map<string, ChannelAccess>();
  /** DM channel id → the user it is with. */
  const dmChannels = new Map<string, string>();
  const noDirectMessages = new Set<string>();
  const access = (channelId: string) => channels.get(channelId) ?? 'open';
  const dmChannelsOf = (userId: string) =>
    [...dmChannels].filter(([, user]) => user === userId).map(([id]) => id);
  /** Answers as Discord refuses a channel closed to the bot; false when it is open to `what`. */
  const refused = (res: ServerResponse, channelId: string, what: 'read' | 'post') => {
    const state = access(channelId);
    if (state === 'open' || (state === 'no-send' && what === 'read')) return false;
    json(res, ...REFUSALS[state]);
    return true;
  };
  const sessionId = `session-${snowflake()}`;
  let sequence = 0;
  let socket: WebSocket | null = null;
  let base = '';

  /** REST routes: [method, path pattern, answer]. Paths are after /api/v10. */
  type Route = [string, RegExp, (req: StandInRequest, m: RegExpExecArray, res: ServerResponse) => void];
  const routes: Route[] = [
    [
      'GET',
      /^\/gateway\/bot$/,
      (_r, _m, res) =>
        json(res, 200, {
          url: base.replace(/^http/, 'ws'),
          shards: 1,
          session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 },
        }),
    ],
    [
      'PUT',
      /^\/applications\/\d+(?:\/guilds\/(\d+))?\/commands$/,
      (r, m, res) => json(res, 200, registered(r.body, m[1] ?? null)),
    ],
    ['POST', /^\/interactions\/\d+\/[^/]+\/callback$/, (_r, _m, res) => res.writeHead(204).end()],
    [
      'POST',
      /^\/webhooks\/\d+\/[^/]+$/,
      (r, _m, res) => json(res, 200, messageFrom(snowflake(), r.body as Record<string, unknown>)),
    ],
    [
      'PATCH',
      /^\/webhooks\/\d+\/[^/]+\/messages\/(\w+|@original)$/,
      (r, m, res) => json(res, 200, messageFrom(snowflake(), r.body as Record<string, unknown>, m[1])),
    ],
    [
      'POST',
      /^\/users\/@me\/channels$/,
      (r, _m, res) => {
        const userId = (r.body as { recipient_id: string }).recipient_id;
        const id = [...dmChannels].find(([, user]) => user === userId)?.[0] ?? snowflake();
        dmChannels.set(id, userId);
        json(res, 200, { id, type: 1, recipients: [{ id: userId, username: 'member', discriminator: '0' }] });
      },
    ],
    [
      'GET',
      /^\/channels\/(\d+)$/,
      (_r, m, res) => {
        const id = m[1]!;
        if (refused(res, id, 'read')) return;
        const deny = access(id) === 'no-send' ? PermissionFlagsBits.SendMessages : 0n;
        json(res, 200, {
          id,
          type: 0,
          guild_id: GUILD_ID,
          name: 'seedblock',
          permission_overwrites: [{ id: GUILD_ID, type: 0, allow: '0', deny: String(deny) }],
        });
      },
    ],
    [
      'GET',
      /^\/guilds\/(\d+)$/,
      (_r, m, res) =>
        json(res, 200, {
          id: m[1],
          name: 'SeedBlock',
          owner_id: snowflake(),
          roles: [{ id: m[1], name: '@everyone', permissions: String(EVERYONE_PERMISSIONS), position: 0 }],
        }),
    ],
    [
      'GET',
      /^\/guilds\/(\d+)\/members\/(\d+)$/,
      (_r, m, res) =>
        json(res, 200, { user: { ...BOT_USER, id: m[2] }, roles: [], joined_at: '2024-01-01T00:00:00.000Z' }),
    ],
    [
      'POST',
      /^\/channels\/(\d+)\/messages$/,
      (r, m, res) => {
        const to = dmChannels.get(m[1]!);
        if (to !== undefined && noDirectMessages.has(to))
          return json(res, 403, { message: 'Cannot send messages to this user', code: 50007 });
        if (to === undefined && refused(res, m[1]!, 'post')) return;
        const message = messageFrom(m[1]!, r.body as Record<string, unknown>);
        messages.set(message.id, message);
        json(res, 200, message);
      },
    ],
    [
      'PATCH',
      /^\/channels\/(\d+)\/messages\/(\d+)$/,
      (r, m, res) => {
        const edited = editMessage(messages, m[1]!, m[2]!, r.body);
        json(res, edited ? 200 : 404, edited ?? UNKNOWN_MESSAGE);
      },
    ],
  ];

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', base);
      // Decoded: discord.js writes `@original` as `%40original`.
      const path = decodeURIComponent(url.pathname).replace(/^\/api\/v10/, '');
      const recorded: StandInRequest = {
        method: req.method ?? '',
        path,
        params: Object.fromEntries(url.searchParams),
        headers: new Headers(req.headers as Record<string, string>),
        body: await readBody(req),
        at: Date.now(),
      };
      requests.push(recorded);
      const limited = rateLimits.findIndex((l) => l.method === recorded.method && l.path.test(path));
      if (limited !== -1) {
        const [{ retryAfterSeconds }] = rateLimits.splice(limited, 1) as [RateLimit];
        // As Discord answers a per-route limit: the body's retry_after and the headers agree.
        return json(
          res,
          429,
          { message: 'You are being rate limited.', retry_after: retryAfterSeconds, global: false },
          {
            'retry-after': String(Math.ceil(retryAfterSeconds)),
            'x-ratelimit-limit': '1',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset-after': String(retryAfterSeconds),
            'x-ratelimit-bucket': 'stand-in',
            'x-ratelimit-scope': 'user',
          },
        );
      }
      const route = routes.find(([method, pattern]) => method === recorded.method && pattern.test(path));
      if (!route) return json(res, 404, { message: '404: Not Found', code: 0 });
      route[2](recorded, route[1].exec(path)!, res);
    })();
  });

  const gateway = new WebSocketServer({ server });
  const send = (ws: WebSocket, frame: GatewayFrame) => ws.send(JSON.stringify(frame));
  // Every dispatch of the session, so a RESUME gets what it missed, as Discord replays it: a bot
  // that reconnects (a drop, a late heartbeat ack on a loaded machine) loses no interaction.
  const dispatched: GatewayFrame[] = [];
  /** The connection the session runs on (after READY or RESUMED); null between connections. */
  let live: WebSocket | null = null;
  const dispatchOn = (ws: WebSocket | null, t: string, d: unknown) => {
    const frame = { op: OP.dispatch, t, s: ++sequence, d };
    dispatched.push(frame);
    if (ws) send(ws, frame);
  };

  gateway.on('connection', (ws) => {
    socket = ws;
    ws.on('close', () => {
      if (live === ws) live = null;
    });
    send(ws, { op: OP.hello, d: { heartbeat_interval: HEARTBEAT_INTERVAL_MS } });
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as GatewayFrame;
      received.push(frame);
      if (frame.op === OP.heartbeat) send(ws, { op: OP.heartbeatAck, d: null });
      if (frame.op === OP.identify) {
        live = ws;
        dispatchOn(ws, 'READY', {
          v: 10,
          user: BOT_USER,
          guilds: [],
          session_id: sessionId,
          resume_gateway_url: base.replace(/^http/, 'ws'),
          application: { id: APPLICATION_ID, flags: 0 },
        });
      }
      if (frame.op === OP.resume) {
        const d = frame.d as { session_id: string; seq: number };
        if (d.session_id !== sessionId) return send(ws, { op: OP.invalidSession, d: false });
        for (const missed of dispatched.filter((f) => (f.s ?? 0) > d.seq)) send(ws, missed);
        live = ws;
        dispatchOn(ws, 'RESUMED', null);
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiUrl: `${base}/api`,
    requests,
    received,
    messages,
    dispatch(t, d) {
      dispatchOn(live, t, d);
    },
    drop() {
      socket?.terminate();
      socket = null;
    },
    reconnect() {
      if (!socket) throw new Error('no gateway connection');
      send(socket, { op: OP.reconnect, d: null });
    },
    rateLimitNext(method, path, retryAfterSeconds) {
      rateLimits.push({ method, path, retryAfterSeconds });
    },
    setChannel(channelId, channelAccess) {
      channels.set(channelId, channelAccess);
    },
    refuseDirectMessages(userId) {
      noDirectMessages.add(userId);
    },
    directMessages(userId) {
      const inDm = new Set(dmChannelsOf(userId));
      return [...messages.values()].filter((m) => inDm.has(m.channel_id));
    },
    directMessageAttempts(userId) {
      const paths = new Set(dmChannelsOf(userId).map((id) => `/channels/${id}/messages`));
      return requests.filter((r) => r.method === 'POST' && paths.has(r.path)).length;
    },
    async waitFor(read, count = 1, what = 'Discord traffic', timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = read();
        if (found.length >= count) return found;
        if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${count} × ${what}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async close() {
      for (const ws of gateway.clients) ws.terminate();
      await new Promise<void>((resolve) => gateway.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
