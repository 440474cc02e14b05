// Every probe here targets 127.0.0.1 or ::1 only.
import dgram from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { createProbe, isProbeKind, probeErrorResponse, probeKinds } from '../../../api/probe/index.ts';
import type { ProbeFailure } from '../../../api/probe/index.ts';
import { fakeA2sServers } from '../../support/fakes/a2s-server.ts';

/** Generous: a fake on loopback answers at once, but a loaded machine may be slow to run it. */
const TIMEOUT_MS = 2_000;
const fake = fakeA2sServers();

const probe = createProbe('a2s', { allowPrivate: true, timeoutMs: TIMEOUT_MS });

describe('private address guard', () => {
  const guarded = createProbe('a2s', { allowPrivate: false, timeoutMs: TIMEOUT_MS });

  it.each(['127.0.0.1', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::127.0.0.1'])(
    'refuses %s without sending a packet',
    async (ip) => {
      const server = await fake('direct');
      expect(await guarded(ip, server.port)).toEqual({
        ok: false,
        reason: 'private address',
        range: 'loopback',
      });
      await new Promise((r) => setTimeout(r, 50)); // room for a stray datagram to land
      expect(server.requests).toBe(0);
    },
  );

  it('refuses ::1 too and maps to 403 private address', async () => {
    const server = await fake('direct', '::1');
    const result = await guarded('::1', server.port);
    expect(result).toEqual({ ok: false, reason: 'private address', range: 'loopback' });
    expect(probeErrorResponse(result as ProbeFailure)).toEqual({
      status: 403,
      error: 'private address',
    });
    expect(server.requests).toBe(0);
  });

  it('never probes non-host ranges, even with allowPrivate', async () => {
    // Nothing is sent: these return before a socket exists (the socket factory would throw).
    const strict = createProbe('a2s', { allowPrivate: true, createSocket: () => unexpectedSocket() });
    for (const ip of ['0.0.0.0', '::', '224.0.0.1', 'ff02::1', '255.255.255.255', '0.1.2.3']) {
      expect(await strict(ip, 27015)).toMatchObject({ ok: false, reason: 'private address' });
    }
  });

  it('allowPrivate opens LAN and loopback ranges only: documentation, benchmarking and reserved stay closed', async () => {
    // These leave the machine if probed, toward addresses nobody owns; tests use them as
    // forwarded client IPs, so the guard must hold even with PROBE_ALLOW_PRIVATE=1.
    const strict = createProbe('a2s', { allowPrivate: true, createSocket: () => unexpectedSocket() });
    const closed = [
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      '198.18.0.1',
      '240.0.0.1',
      '192.0.0.8',
      '2001:db8::5',
      '100::1',
      '::ffff:203.0.113.9',
    ];
    for (const ip of closed) {
      expect(await strict(ip, 27015)).toMatchObject({ ok: false, reason: 'private address' });
    }
  });
});

describe('unavailable', () => {
  it('when the socket cannot be created', async () => {
    const broken = createProbe('a2s', {
      allowPrivate: true,
      createSocket: () => {
        throw Object.assign(new Error('socket: too many open files'), { code: 'EMFILE' });
      },
    });
    const result = await broken('127.0.0.1', 27015);
    expect(result).toMatchObject({ ok: false, reason: 'unavailable' });
    expect(probeErrorResponse(result as ProbeFailure)).toEqual({
      status: 503,
      error: 'probe unavailable',
    });
  });

  it('when the socket fails with a local error, and the socket is closed', async () => {
    let closed = false;
    const failing = createProbe('a2s', {
      allowPrivate: true,
      createSocket: (type) => {
        const socket = dgram.createSocket(type);
        socket.on('close', () => (closed = true));
        setImmediate(() => socket.emit('error', Object.assign(new Error('bind EMFILE'), { code: 'EMFILE' })));
        return socket;
      },
    });
    const server = await fake('silent');
    expect(await failing('127.0.0.1', server.port)).toMatchObject({ ok: false, reason: 'unavailable' });
    expect(closed).toBe(true);
  });

  it('for input that is not an IP literal or port', async () => {
    const strict = createProbe('a2s', { allowPrivate: true, createSocket: () => unexpectedSocket() });
    for (const ip of ['localhost', '127.1', '', '[::1]', undefined as unknown as string]) {
      expect(await strict(ip, 27015)).toMatchObject({ ok: false, reason: 'unavailable' });
    }
    for (const port of [0, 65536, 1.5, Number.NaN]) {
      expect(await strict('127.0.0.1', port)).toMatchObject({ ok: false, reason: 'unavailable' });
    }
  });

  it('when too many probes are in flight', async () => {
    const server = await fake('silent');
    const limited = createProbe('a2s', { allowPrivate: true, timeoutMs: TIMEOUT_MS, maxInFlight: 2 });
    const results = await Promise.all([1, 2, 3].map(() => limited('127.0.0.1', server.port)));
    expect(results.map((r) => !r.ok && r.reason)).toEqual(['timeout', 'timeout', 'unavailable']);
    expect(await limited('127.0.0.1', server.port)).toMatchObject({ reason: 'timeout' }); // slots freed
  });

  it('when aborted', async () => {
    const server = await fake('silent');
    const controller = new AbortController();
    const pending = probe('127.0.0.1', server.port, { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, reason: 'unavailable', detail: 'aborted' });
    expect(await probe('127.0.0.1', server.port, { signal: AbortSignal.abort() })).toMatchObject({
      reason: 'unavailable',
    });
  });
});

describe('probe kinds', () => {
  it('registers a2s and rejects unknown kinds and bad options', () => {
    expect(Object.keys(probeKinds)).toEqual(['a2s']);
    expect(isProbeKind('a2s')).toBe(true);
    expect(isProbeKind('toString')).toBe(false);
    expect(() => createProbe('gamedig' as 'a2s', { allowPrivate: false })).toThrow(/unknown probe kind/);
    expect(() => createProbe('a2s', { allowPrivate: false, timeoutMs: 0 })).toThrow(RangeError);
    expect(() => createProbe('a2s', { allowPrivate: false, maxInFlight: 0 })).toThrow(RangeError);
  });
});

function unexpectedSocket(): never {
  throw new Error('no socket may be created for this target');
}
