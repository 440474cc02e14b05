// A2S_INFO wire format (Valve "Server queries"): request, challenge and the 0x49 info reply.

export const SIMPLE_HEADER = -1; // FF FF FF FF as int32 LE
export const SPLIT_HEADER = -2; // FE FF FF FF as int32 LE

const INFO_REQUEST = Buffer.from('\xff\xff\xff\xffTSource Engine Query\0', 'latin1');
const CHALLENGE = 0x41;
const INFO = 0x49;
const THE_SHIP_APP_ID = 2400; // the one game with three extra bytes before the version

export interface A2sInfo {
  protocol: number;
  name: string;
  map: string;
  folder: string;
  game: string;
  appId: number;
  players: number;
  maxPlayers: number;
  bots: number;
  serverType: 'dedicated' | 'listen' | 'proxy';
  environment: 'linux' | 'windows' | 'mac';
  visibility: 'public' | 'private';
  vac: boolean;
  version: string;
  /** Extra data (EDF) fields; present only when the server sent them. */
  port?: number;
  steamId?: string;
  sourceTv?: { port: number; name: string };
  keywords?: string;
  gameId?: string;
}

/** What one complete (non-split) packet from the server says. */
export type A2sReply =
  | { kind: 'info'; info: A2sInfo }
  | { kind: 'challenge'; challenge: Buffer }
  | { kind: 'garbage'; detail: string };

/** The A2S_INFO request, with the server's challenge appended on the second round. */
export function buildInfoRequest(challenge?: Uint8Array): Buffer {
  return challenge ? Buffer.concat([INFO_REQUEST, challenge]) : Buffer.from(INFO_REQUEST);
}

/** Reads a packet that starts with the FF FF FF FF header. Never throws. */
export function parseSimplePacket(packet: Buffer): A2sReply {
  if (packet.length < 5 || packet.readInt32LE(0) !== SIMPLE_HEADER) return garbage('bad header');
  const type = packet[4];
  if (type === CHALLENGE) {
    return packet.length >= 9
      ? { kind: 'challenge', challenge: Buffer.from(packet.subarray(5, 9)) }
      : garbage('short challenge');
  }
  if (type !== INFO) return garbage(`unexpected reply type 0x${(type ?? 0).toString(16)}`);
  try {
    return { kind: 'info', info: readInfo(new Reader(packet, 5)) };
  } catch (err) {
    if (err instanceof MalformedError) return garbage(err.message);
    throw err;
  }
}

function garbage(detail: string): A2sReply {
  return { kind: 'garbage', detail };
}

class MalformedError extends Error {}

class Reader {
  private readonly buf: Buffer;
  at: number;

  constructor(buf: Buffer, at: number) {
    this.buf = buf;
    this.at = at;
  }

  get left(): number {
    return this.buf.length - this.at;
  }
  private need(n: number): number {
    if (this.left < n) throw new MalformedError('truncated info reply');
    const at = this.at;
    this.at += n;
    return at;
  }
  skip(n: number): void {
    this.need(n);
  }
  u8(): number {
    return this.buf.readUInt8(this.need(1));
  }
  u16(): number {
    return this.buf.readUInt16LE(this.need(2));
  }
  u64(): string {
    return this.buf.readBigUInt64LE(this.need(8)).toString();
  }
  cstring(): string {
    const end = this.buf.indexOf(0, this.at);
    if (end === -1) throw new MalformedError('unterminated string');
    const text = this.buf.toString('utf8', this.at, end);
    this.at = end + 1;
    return text;
  }
}

function pick<T>(table: Record<string, T>, byte: number, what: string): T {
  const value = table[String.fromCharCode(byte).toLowerCase()];
  if (value === undefined) throw new MalformedError(`bad ${what} 0x${byte.toString(16)}`);
  return value;
}

function flag(byte: number, what: string): boolean {
  if (byte > 1) throw new MalformedError(`bad ${what} ${byte}`);
  return byte === 1;
}

function readInfo(r: Reader): A2sInfo {
  const info: A2sInfo = {
    protocol: r.u8(),
    name: r.cstring(),
    map: r.cstring(),
    folder: r.cstring(),
    game: r.cstring(),
    appId: r.u16(),
    players: r.u8(),
    maxPlayers: r.u8(),
    bots: r.u8(),
    serverType: pick({ d: 'dedicated', l: 'listen', p: 'proxy' } as const, r.u8(), 'server type'),
    environment: pick({ l: 'linux', w: 'windows', m: 'mac', o: 'mac' } as const, r.u8(), 'environment'),
    visibility: flag(r.u8(), 'visibility') ? 'private' : 'public',
    vac: flag(r.u8(), 'vac'),
    version: '',
  };
  if (info.appId === THE_SHIP_APP_ID) r.skip(3); // mode, witnesses, duration
  info.version = r.cstring();
  if (r.left > 0) readExtraData(r, info);
  return info;
}

// EDF is optional decoration: a truncated tail keeps what was read rather than rejecting a
// reply whose required part was already valid.
function readExtraData(r: Reader, info: A2sInfo): void {
  try {
    const edf = r.u8();
    if (edf & 0x80) info.port = r.u16();
    if (edf & 0x10) info.steamId = r.u64();
    if (edf & 0x40) info.sourceTv = { port: r.u16(), name: r.cstring() };
    if (edf & 0x20) info.keywords = r.cstring();
    if (edf & 0x01) info.gameId = r.u64();
  } catch (err) {
    if (!(err instanceof MalformedError)) throw err;
  }
}
