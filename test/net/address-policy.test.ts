import { isIP } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyAddress, isPublicAddress } from '../../net/address-policy.ts';

// Strings only: nothing here is ever sent anywhere.
const NON_PUBLIC_V4: [string, string][] = [
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'this-network'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.1', 'carrier-grade-nat'],
  ['100.127.255.254', 'carrier-grade-nat'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.169.254', 'link-local'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.8', 'ietf-protocol-assignments'],
  ['192.0.2.1', 'documentation'],
  ['192.88.99.1', '6to4-relay-anycast'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.254', 'reserved'],
  ['255.255.255.255', 'broadcast'],
];

const PUBLIC_V4 = [
  '1.1.1.1',
  '8.8.8.8',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.1',
  '169.253.0.1',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.1',
  '192.0.3.1',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
];

const NON_PUBLIC_V6: [string, string][] = [
  ['::', 'unspecified'],
  ['0:0:0:0:0:0:0:0', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['0000:0000:0000:0000:0000:0000:0000:0001', 'loopback'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['FE80::ABCD:1%25', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456:789a::1', 'unique-local'],
  ['FDFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF', 'unique-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['ff0e::101', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['2001:0DB8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
  ['3fff::1', 'documentation'],
  ['100::1', 'discard'],
  ['100::ffff:ffff:ffff:ffff', 'discard'],
  ['2001::1', 'teredo'],
  ['2001:2::1', 'benchmarking'],
  ['2001:10::1', 'ietf-protocol-assignments'],
  ['2001:1::4', 'ietf-protocol-assignments'],
  ['2001:1ff:ffff::1', 'ietf-protocol-assignments'],
  ['64:ff9b:1::1', 'nat64-local'],
  ['::1:0:0:0', 'reserved'],
  ['4000::1', 'reserved'],
  ['5f00::1', 'reserved'],
];

const PUBLIC_V6 = [
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001:81c::200e',
  '2001:200::1', // just past 2001::/23
  '2001:1::1', // globally reachable exceptions inside 2001::/23
  '2001:3::1',
  '2001:4:112::1',
  '2001:20::1',
  '2001:30::1',
  '2002:0808:0808::1', // 6to4 of 8.8.8.8
  '3ffe::1', // outside 3fff::/20
];

describe('classifyAddress', () => {
  it.each(NON_PUBLIC_V4)('v4 %s is %s', (ip, range) => {
    expect(classifyAddress(ip)).toBe(range);
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(NON_PUBLIC_V6)('v6 %s is %s', (ip, range) => {
    expect(classifyAddress(ip)).toBe(range);
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([...PUBLIC_V4, ...PUBLIC_V6])('%s is public', (ip) => {
    expect(classifyAddress(ip)).toBe('public');
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'], // Express's req.ip form
    ['::FFFF:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
    ['0:0:0:0:0:ffff:10.1.2.3', 'private'],
    ['::ffff:192.168.0.1', 'private'],
    ['::ffff:c0a8:1', 'private'],
    ['::ffff:100.64.0.1', 'carrier-grade-nat'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::ffff:255.255.255.255', 'broadcast'],
    ['::ffff:127.0.0.1%lo', 'loopback'],
    ['::127.0.0.1', 'loopback'], // v4-compatible
    ['::10.0.0.1', 'private'],
    ['::0.0.0.2', 'this-network'],
    ['64:ff9b::127.0.0.1', 'loopback'], // NAT64
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::192.0.2.33', 'documentation'],
    ['2002:7f00:1::', 'loopback'], // 6to4 of 127.0.0.1
    ['2002:c0a8:0101::1', 'private'],
  ])('embedded v4 %s is %s', (ip, range) => {
    expect(classifyAddress(ip)).toBe(range);
  });

  it.each(['::ffff:8.8.8.8', '::ffff:808:808', '::8.8.8.8', '64:ff9b::1.1.1.1', '64:ff9b::101:101'])(
    'embedded public v4 %s is public',
    (ip) => expect(classifyAddress(ip)).toBe('public'),
  );

  it.each([
    '',
    'localhost',
    '127.1',
    '0x7f.0.0.1',
    '0177.0.0.1',
    '127.0.0.01',
    '2130706433',
    ' 127.0.0.1',
    '127.0.0.1 ',
    '256.0.0.1',
    '[::1]',
    '::1::',
    '1:2:3:4:5:6:7:8:9',
    ':::1',
    'fe80::1%',
    '::ffff:127.1',
    '::ffff:1.2.3.4.5',
    'g::1',
  ])('%j is invalid', (ip) => {
    expect(classifyAddress(ip)).toBe('invalid');
    expect(isPublicAddress(ip)).toBe(false);
  });

  it('treats non-strings as invalid', () => {
    expect(classifyAddress(undefined as unknown as string)).toBe('invalid');
  });
});

describe('classifyAddress properties', () => {
  it('an IPv4 address and its mapped / NAT64 forms classify alike', () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
        const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        const range = classifyAddress(v4);
        expect(classifyAddress(`::ffff:${v4}`)).toBe(range);
        expect(classifyAddress(`::FFFF:${hex.toUpperCase()}`)).toBe(range);
        expect(classifyAddress(`0:0:0:0:0:ffff:${hex}%eth0`)).toBe(range);
        expect(classifyAddress(`64:ff9b::${v4}`)).toBe(range);
      }),
    );
  });

  it('never throws and only calls parsable input public', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.ipV4Extended(), fc.ipV6()), (s) => {
        if (classifyAddress(s) === 'public') expect(isIP(s)).not.toBe(0);
      }),
    );
  });

  it('every valid IPv6 spelling gets a range', () => {
    fc.assert(
      fc.property(fc.ipV6(), (ip) => {
        expect(classifyAddress(ip)).not.toBe('invalid');
      }),
    );
  });
});
