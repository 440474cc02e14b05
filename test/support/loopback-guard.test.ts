import dgram from 'node:dgram';
import { expect, it } from 'vitest';

// The guard every test file runs under (test/support/loopback-guard.ts): nothing of ours may
// reach past loopback. Each refused call throws before any packet or DNS query.

const cause = (p: Promise<unknown>) =>
  p.then(
    () => 'sent',
    (e: { cause?: unknown }) => String(e.cause),
  );

it('refuses TCP and UDP to anything but loopback, before sending', async () => {
  expect(await cause(fetch('http://203.0.113.1:59999/'))).toMatch(/loopback guard/);
  expect(await cause(fetch('http://example.invalid:59999/'))).toMatch(/loopback guard/);
  const socket = dgram.createSocket('udp4');
  try {
    expect(() => socket.send(Buffer.from('x'), 27015, '203.0.113.1')).toThrow(/loopback guard/);
    expect(() => socket.connect(27015, '198.51.100.1')).toThrow(/loopback guard/);
  } finally {
    socket.close();
  }
});

it('lets loopback through', async () => {
  expect(await cause(fetch('http://127.0.0.1:59999/'))).toMatch(/ECONNREFUSED/);
});
