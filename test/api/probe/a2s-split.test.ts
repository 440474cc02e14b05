import { describe, expect, it } from 'vitest';
import { parseSimplePacket } from '../../../api/probe/a2s-packet.ts';
import { SplitAssembler } from '../../../api/probe/a2s-split.ts';
import type { SplitStep } from '../../../api/probe/a2s-split.ts';
import { encodeInfoReply, FAKE_INFO, splitReply } from '../../support/fakes/a2s-server.ts';

const feed = (packets: Buffer[]): SplitStep[] => {
  const assembler = new SplitAssembler();
  return packets.map((p) => assembler.add(p));
};

// Fragments in the two header layouts our fake does not produce.
function sourceNoSize(payload: Buffer, size: number): Buffer[] {
  const chunks = Array.from({ length: Math.ceil(payload.length / size) }, (_, i) =>
    payload.subarray(i * size, (i + 1) * size),
  );
  return chunks.map((c, n) =>
    Buffer.concat([Buffer.from([0xfe, 0xff, 0xff, 0xff, 7, 0, 0, 0, chunks.length, n]), c]),
  );
}

function goldSrc(payload: Buffer, size: number): Buffer[] {
  const chunks = Array.from({ length: Math.ceil(payload.length / size) }, (_, i) =>
    payload.subarray(i * size, (i + 1) * size),
  );
  return chunks.map((c, n) =>
    Buffer.concat([Buffer.from([0xfe, 0xff, 0xff, 0xff, 9, 0, 0, 0, (n << 4) | chunks.length]), c]),
  );
}

describe('SplitAssembler', () => {
  const reply = encodeInfoReply({ keywords: 'x'.repeat(40) });

  it.each([
    ['Source', splitReply(reply, 30)],
    ['Source without size', sourceNoSize(reply, 30)],
    ['GoldSrc', goldSrc(reply, 30)],
  ])('reassembles %s fragments in any order', (_layout, fragments) => {
    expect(fragments.length).toBeGreaterThan(2);
    for (const order of [fragments, [...fragments].reverse()]) {
      const steps = feed(order);
      expect(steps.slice(0, -1).every((s) => s.status === 'pending')).toBe(true);
      const last = steps.at(-1);
      expect(last).toEqual({ status: 'complete', packet: reply });
      if (last?.status === 'complete') {
        expect(parseSimplePacket(last.packet)).toMatchObject({
          kind: 'info',
          info: { name: FAKE_INFO.name },
        });
      }
    }
  });

  it('ignores fragments of another sequence', () => {
    const [a, b] = splitReply(reply, Math.ceil(reply.length / 2), 5);
    const [stray] = splitReply(reply, Math.ceil(reply.length / 2), 6);
    expect(feed([a!, stray!, b!]).map((s) => s.status)).toEqual(['pending', 'pending', 'complete']);
  });

  it('rejects compressed, short, inconsistent and oversized splits', () => {
    const compressed = splitReply(reply, 30, -5)[0]!;
    expect(feed([compressed])[0]).toMatchObject({ status: 'garbage', detail: 'compressed split reply' });
    expect(feed([Buffer.from([0xfe, 0xff, 0xff, 0xff, 1])])[0]).toMatchObject({ status: 'garbage' });

    const [first, second] = splitReply(reply, 30);
    const wrongTotal = Buffer.from(second!);
    wrongTotal[8] = 9;
    expect(feed([first!, wrongTotal]).at(-1)).toMatchObject({ status: 'garbage' });

    const flood = Array.from({ length: 20 }, (_, n) =>
      Buffer.concat([splitReply(reply, 30)[1]!.subarray(0, 8), Buffer.from([200, n + 1, 0, 0])]),
    );
    expect(feed(flood).at(-1)).toMatchObject({ status: 'garbage', detail: 'split reply too large' });
  });

  it('waits while fragment 0 is missing', () => {
    const fragments = splitReply(reply, 30);
    expect(feed(fragments.slice(1)).every((s) => s.status === 'pending')).toBe(true);
  });
});
