// A fake Steam A2S_INFO server on loopback UDP, for probe and API tests.
import dgram from 'node:dgram';
import type { A2sInfo } from '../../../api/probe/a2s-packet.ts';
import { afterEach } from 'vitest';

export type FakeA2sMode = 'direct' | 'challenge' | 'silent' | 'garbage' | 'split';

export interface FakeA2sOptions {
  mode: FakeA2sMode;
  /** Loopback only: '127.0.0.1' (default) or '::1'. */
  host?: '127.0.0.1' | '::1';
  info?: Partial<A2sInfo>;
  /** What 'garbage' mode sends back. */
  garbage?: Buffer;
}

export interface FakeA2sServer {
  readonly port: number;
  readonly host: string;
  /** Datagrams received so far. */
  readonly requests: number;
  /** Requests that carried the right challenge ('challenge' mode). */
  readonly challengedRequests: number;
  close(): Promise<void>;
}

export const FAKE_INFO: A2sInfo = {
  protocol: 17,
  name: 'Fake Facility',
  map: 'Facility',
  folder: 'fakegame',
  game: 'Fake Game',
  appId: 1234,
  players: 3,
  maxPlayers: 20,
  bots: 0,
  serverType: 'dedicated',
  environment: 'linux',
  visibility: 'public',
  vac: false,
  version: '14.0.0',
};

const REQUEST = Buffer.from('\xff\xff\xff\xffTSource Engine Query\0', 'latin1');
const CHALLENGE = Buffer.from([0x0b, 0xad, 0xf0, 0x0d]);

/** Encodes a 0x49 info reply (single-packet form, FF FF FF FF header included). */
export function encodeInfoReply(fields: Partial<A2sInfo> = {}): Buffer {
  const info = { ...FAKE_INFO, ...fields };
  const cstr = (s: string) => Buffer.from(`${s}\0`, 'utf8');
  const u16 = (n: number) => {
    const b = Buffer.alloc(2);
    b.writeUInt16LE(n & 0xffff);
    return b;
  };
  const u64 = (s: string) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(s));
    return b;
  };
  const code = (s: string) => Buffer.from(s, 'latin1');
  const parts = [
    Buffer.from([0xff, 0xff, 0xff, 0xff, 0x49, info.protocol]),
    cstr(info.name),
    cstr(info.map),
    cstr(info.folder),
    cstr(info.game),
    u16(info.appId),
    Buffer.from([info.players, info.maxPlayers, info.bots]),
    code({ dedicated: 'd', listen: 'l', proxy: 'p' }[info.serverType]),
    code({ linux: 'l', windows: 'w', mac: 'm' }[info.environment]),
    Buffer.from([info.visibility === 'private' ? 1 : 0, info.vac ? 1 : 0]),
  ];
  if (info.appId === 2400) parts.push(Buffer.from([0, 0, 0]));
  parts.push(cstr(info.version));
  const edf =
    (info.port !== undefined ? 0x80 : 0) |
    (info.steamId !== undefined ? 0x10 : 0) |
    (info.sourceTv !== undefined ? 0x40 : 0) |
    (info.keywords !== undefined ? 0x20 : 0) |
    (info.gameId !== undefined ? 0x01 : 0);
  if (edf) {
    parts.push(Buffer.from([edf]));
    if (info.port !== undefined) parts.push(u16(info.port));
    if (info.steamId !== undefined) parts.push(u64(info.steamId));
    if (info.sourceTv !== undefined) parts.push(u16(info.sourceTv.port), cstr(info.sourceTv.name));
    if (info.keywords !== undefined) parts.push(cstr(info.keywords));
    if (info.gameId !== undefined) parts.push(u64(info.gameId));
  }
  return Buffer.concat(parts);
}

/** Splits a whole reply into Source-format fragments (FE FF FF FF, id, total, number, size). */
export function splitReply(packet: Buffer, fragmentSize: number, id = 0x1234): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < packet.length; at += fragmentSize)
    chunks.push(packet.subarray(at, at + fragmentSize));
  return chunks.map((chunk, n) => {
    const header = Buffer.alloc(12);
    header.writeInt32LE(-2, 0);
    header.writeInt32LE(id, 4);
    header[8] = chunks.length;
    header[9] = n;
    header.writeUInt16LE(fragmentSize, 10);
    return Buffer.concat([header, chunk]);
  });
}

export async function startFakeA2sServer(options: FakeA2sOptions): Promise<FakeA2sServer> {
  const host = options.host ?? '127.0.0.1';
  const socket = dgram.createSocket(host === '::1' ? 'udp6' : 'udp4');
  let requests = 0;
  let challengedRequests = 0;

  socket.on('message', (msg, peer) => {
    requests++;
    const reply = (packet: Buffer) => socket.send(packet, peer.port, peer.address);
    if (!msg.subarray(0, REQUEST.length).equals(REQUEST)) return; // not an A2S_INFO request
    switch (options.mode) {
      case 'silent':
        return;
      case 'garbage':
        return reply(options.garbage ?? Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'));
      case 'direct':
        return reply(encodeInfoReply(options.info));
      case 'split':
        // Last fragment first, so the probe has to reorder.
        for (const f of splitReply(encodeInfoReply(options.info), 24).reverse()) reply(f);
        return;
      case 'challenge':
        if (msg.length === REQUEST.length + 4 && msg.subarray(REQUEST.length).equals(CHALLENGE)) {
          challengedRequests++;
          return reply(encodeInfoReply(options.info));
        }
        return reply(Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff, 0x41]), CHALLENGE]));
    }
  });

  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  socket.on('error', () => {}); // a late ICMP error must not crash the test run

  return {
    port: socket.address().port,
    host,
    get requests() {
      return requests;
    },
    get challengedRequests() {
      return challengedRequests;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/**
 * Fake game servers for one test file: `fake(mode)` starts one on loopback, and every one started
 * is closed after each test.
 */
export function fakeA2sServers(): (mode: FakeA2sMode, host?: '127.0.0.1' | '::1') => Promise<FakeA2sServer> {
  const servers: FakeA2sServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (mode, host) => {
    const server = await startFakeA2sServer({ mode, host });
    servers.push(server);
    return server;
  };
}
