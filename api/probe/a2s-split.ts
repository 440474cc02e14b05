import { SIMPLE_HEADER, SPLIT_HEADER } from './a2s-packet.ts';

// Split replies (header FE FF FF FF) are reassembled rather than taken on trust: a lone split
// header says little, while the reassembled payload goes through the same strict A2S_INFO parse
// as a single packet, so a positive answer always carries validated info. An info reply is
// normally far below one datagram, so splits are rare; limits below keep a hostile sender cheap.

const MAX_FRAGMENTS = 16;
const MAX_BYTES = 64 * 1024;

/** Header layouts in use: Source (with and without the Size field) and GoldSrc. */
interface Layout {
  readonly payloadAt: number;
  total(p: Buffer): number;
  number(p: Buffer): number;
}

const LAYOUTS: readonly Layout[] = [
  { payloadAt: 12, total: (p) => p[8] ?? 0, number: (p) => p[9] ?? 0 },
  { payloadAt: 10, total: (p) => p[8] ?? 0, number: (p) => p[9] ?? 0 },
  { payloadAt: 9, total: (p) => (p[8] ?? 0) & 0x0f, number: (p) => (p[8] ?? 0) >> 4 },
];

export type SplitStep =
  { status: 'pending' } | { status: 'complete'; packet: Buffer } | { status: 'garbage'; detail: string };

/** Collects the fragments of one split reply; feed every FE FF FF FF packet to add(). */
export class SplitAssembler {
  private id: number | undefined;
  private layout: Layout | undefined;
  private readonly fragments: Buffer[] = [];
  private bytes = 0;

  add(packet: Buffer): SplitStep {
    if (packet.length < 9 || packet.readInt32LE(0) !== SPLIT_HEADER) return garbage('bad split header');
    const id = packet.readInt32LE(4);
    // The high bit marks a bzip2-compressed body; no A2S_INFO server is known to send one and
    // we carry no decompressor, so it counts as not understood.
    if (id < 0) return garbage('compressed split reply');
    if (this.id === undefined) this.id = id;
    if (id !== this.id) return { status: 'pending' }; // a stale sequence; ours may still complete
    this.bytes += packet.length;
    if (this.fragments.push(packet) > MAX_FRAGMENTS || this.bytes > MAX_BYTES) {
      return garbage('split reply too large');
    }
    // The layout is only knowable from fragment 0, whose payload starts with FF FF FF FF.
    this.layout ??= LAYOUTS.find((l) => this.fragments.some((p) => isFirstFragment(p, l)));
    return this.layout ? this.assemble(this.layout) : { status: 'pending' };
  }

  private assemble(layout: Layout): SplitStep {
    const total = layout.total(this.fragments[0] ?? Buffer.alloc(0));
    const parts = new Map<number, Buffer>();
    for (const p of this.fragments) {
      const n = layout.number(p);
      if (p.length < layout.payloadAt || layout.total(p) !== total || n >= total) {
        return garbage('inconsistent split fragments');
      }
      parts.set(n, p.subarray(layout.payloadAt));
    }
    if (parts.size < total) return { status: 'pending' };
    const ordered = Array.from({ length: total }, (_, n) => parts.get(n) as Buffer);
    return { status: 'complete', packet: Buffer.concat(ordered) };
  }
}

function isFirstFragment(p: Buffer, l: Layout): boolean {
  const total = l.total(p);
  return (
    l.number(p) === 0 &&
    total >= 1 &&
    p.length >= l.payloadAt + 4 &&
    p.readInt32LE(l.payloadAt) === SIMPLE_HEADER
  );
}

function garbage(detail: string): SplitStep {
  return { status: 'garbage', detail };
}
