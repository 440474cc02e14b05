// Every probe here targets 127.0.0.1 or ::1 only.
import dgram from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { createProbe, probeErrorResponse } from '../../../api/probe/index.ts';
import type { ProbeFailure } from '../../../api/probe/index.ts';
import { probeA2s } from '../../../api/probe/probe-a2s.ts';
import { FAKE_INFO, fakeA2sServers } from '../../support/fakes/a2s-server.ts';

/** Generous: a fake on loopback answers at once, but a loaded machine may be slow to run it. */
const TIMEOUT_MS = 2_000;
const fake = fakeA2sServers();

const probe = createProbe('a2s', { allowPrivate: true, timeoutMs: TIMEOUT_MS });

describe('a2s probe against the fake server', () => {
  it('accepts a direct answer', async () => {
    const server = await fake('direct');
    expect(await probe('127.0.0.1', server.port)).toEqual({ ok: true, kind: 'a2s', info: FAKE_INFO });
    expect(server.requests).toBe(1);
  });

  it('answers the challenge round with the echoed challenge', async () => {
    const server = await fake('challenge');
    expect(await probe('127.0.0.1', server.port)).toMatchObject({ ok: true, info: { name: FAKE_INFO.name } });
    expect(server.requests).toBe(2);
    expect(server.challengedRequests).toBe(1);
  });

  it('reassembles a split answer', async () => {
    const server = await fake('split');
    expect(await probe('127.0.0.1', server.port)).toEqual({ ok: true, kind: 'a2s', info: FAKE_INFO });
  });

  it('reports a silent server as timeout, within a bounded time', async () => {
    const server = await fake('silent');
    const started = Date.now();
    expect(await probe('127.0.0.1', server.port)).toEqual({ ok: false, reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2000); // loose: only "it does end"
    expect(server.requests).toBe(1);
  });

  it('reports garbage as garbage', async () => {
    const server = await fake('garbage');
    expect(await probe('127.0.0.1', server.port)).toMatchObject({ ok: false, reason: 'garbage' });
  });

  it('reports a closed port as no game server', async () => {
    const port = await closedUdpPort();
    const result = await probe('127.0.0.1', port);
    expect(result.ok).toBe(false);
    expect(['refused', 'timeout']).toContain(!result.ok && result.reason);
    expect(probeErrorResponse(result as ProbeFailure)).toEqual({
      status: 403,
      error: 'no game server',
    });
  });

  it('works over IPv6 loopback and for the Express mapped form', async () => {
    const v6 = await fake('direct', '::1');
    expect(await probe('::1', v6.port)).toMatchObject({ ok: true });
    expect(await probe('0:0:0:0:0:0:0:1', v6.port)).toMatchObject({ ok: true });
    const v4 = await fake('challenge');
    expect(await probe('::ffff:127.0.0.1', v4.port)).toMatchObject({ ok: true });
  });

  it('handles many probes at once, each on its own socket', async () => {
    const server = await fake('challenge');
    const results = await Promise.all(Array.from({ length: 20 }, () => probe('127.0.0.1', server.port)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(server.requests).toBe(40);
  });
});

describe('probeA2s edge cases', () => {
  it('gives up on a server that challenges forever', async () => {
    const server = dgram.createSocket('udp4');
    let n = 0;
    server.on('message', (_msg, peer) => {
      const reply = Buffer.from([0xff, 0xff, 0xff, 0xff, 0x41, 0, 0, 0, ++n]);
      server.send(reply, peer.port, peer.address);
    });
    await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve));
    try {
      const target = { family: 4 as const, address: '127.0.0.1', port: server.address().port };
      expect(await probeA2s(target, { timeoutMs: 1000 })).toEqual({
        ok: false,
        reason: 'garbage',
        detail: 'endless challenge',
      });
      expect(n).toBe(3);
    } finally {
      server.close();
    }
  });
});

/** A loopback UDP port that was just free: bind, read the port, close. */
async function closedUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
}
