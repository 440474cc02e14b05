import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildInfoRequest, parseSimplePacket } from '../../../api/probe/a2s-packet.ts';
import { encodeInfoReply, FAKE_INFO } from '../../support/fakes/a2s-server.ts';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

describe('buildInfoRequest', () => {
  it('is the A2S_INFO request, with the challenge appended on the second round', () => {
    expect(buildInfoRequest()).toEqual(
      Buffer.concat([hex('ffffffff 54'), Buffer.from('Source Engine Query\0', 'latin1')]),
    );
    expect(buildInfoRequest(hex('01020304')).subarray(-4)).toEqual(hex('01020304'));
    expect(buildInfoRequest(hex('01020304'))).toHaveLength(29);
  });
});

describe('parseSimplePacket', () => {
  it('reads an info reply', () => {
    expect(parseSimplePacket(encodeInfoReply())).toEqual({ kind: 'info', info: FAKE_INFO });
  });

  it('reads extra data fields and The Ship bytes', () => {
    const extra = {
      port: 27015,
      steamId: '90071992547409921',
      sourceTv: { port: 27020, name: 'tv' },
      keywords: 'a,b',
      gameId: '18446744073709551615',
    };
    expect(parseSimplePacket(encodeInfoReply(extra))).toEqual({
      kind: 'info',
      info: { ...FAKE_INFO, ...extra },
    });
    const ship = parseSimplePacket(encodeInfoReply({ appId: 2400, version: '1.0.0.4' }));
    expect(ship).toMatchObject({ kind: 'info', info: { appId: 2400, version: '1.0.0.4' } });
  });

  it('decodes the enum bytes, upper case too', () => {
    const packet = encodeInfoReply({
      serverType: 'proxy',
      environment: 'windows',
      visibility: 'private',
      vac: true,
    });
    expect(parseSimplePacket(packet)).toMatchObject({
      info: { serverType: 'proxy', environment: 'windows', visibility: 'private', vac: true },
    });
    const at = packet.indexOf(Buffer.from('pw\x01\x01', 'latin1'));
    packet[at] = 'D'.charCodeAt(0);
    packet[at + 1] = 'O'.charCodeAt(0);
    expect(parseSimplePacket(packet)).toMatchObject({
      info: { serverType: 'dedicated', environment: 'mac' },
    });
  });

  it('keeps the required fields when the extra data is cut short', () => {
    const full = encodeInfoReply({ port: 27015, keywords: 'abc' });
    const cut = full.subarray(0, full.length - 2); // keywords lose their terminator
    expect(parseSimplePacket(cut)).toMatchObject({
      kind: 'info',
      info: { port: 27015, version: FAKE_INFO.version },
    });
  });

  it('reads a challenge', () => {
    expect(parseSimplePacket(hex('ffffffff 41 0badf00d'))).toEqual({
      kind: 'challenge',
      challenge: hex('0badf00d'),
    });
    expect(parseSimplePacket(hex('ffffffff 41 0bad'))).toMatchObject({ kind: 'garbage' });
  });

  it.each([
    ['empty', ''],
    ['bad header', '00000000 49'],
    ['split header', 'feffffff 49'],
    ['other reply type', 'ffffffff 44 00'],
    ['header only', 'ffffffff 49'],
    ['unterminated name', 'ffffffff 49 11 6e616d65'],
    ['http', Buffer.from('HTTP/1.1 400 Bad Request').toString('hex')],
  ])('rejects %s', (_name, packet) => {
    expect(parseSimplePacket(hex(packet))).toMatchObject({ kind: 'garbage' });
  });

  it('rejects bad enum bytes and every truncation of the required part', () => {
    const packet = encodeInfoReply();
    const at = packet.indexOf(Buffer.from('dl\x00\x00', 'latin1'));
    for (const [offset, byte] of [
      [0, 'x'.charCodeAt(0)],
      [1, 'x'.charCodeAt(0)],
      [2, 2],
      [3, 7],
    ] as const) {
      const bad = Buffer.from(packet);
      bad[at + offset] = byte;
      expect(parseSimplePacket(bad)).toMatchObject({ kind: 'garbage' });
    }
    for (let len = 0; len < packet.length; len++) {
      expect(parseSimplePacket(packet.subarray(0, len)).kind).not.toBe('info');
    }
  });

  it('never throws on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.boolean(), (bytes, withHeader) => {
        const packet = Buffer.concat([withHeader ? hex('ffffffff49') : Buffer.alloc(0), bytes]);
        expect(['info', 'challenge', 'garbage']).toContain(parseSimplePacket(packet).kind);
      }),
    );
  });
});
