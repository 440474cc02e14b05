import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIp, parseIp, unmapIpv4 } from '../../net/ip-address.ts';

const text = (ip: string) => {
  const parsed = parseIp(ip);
  if (!parsed) throw new Error(`unparsable ${ip}`);
  return formatIp(parsed);
};

describe('parseIp / formatIp', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::', '::'],
    ['::1', '::1'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['FE80::0:0:1', 'fe80::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:0db8:0000:0001:0001:0001:0001:0001', '2001:db8:0:1:1:1:1:1'],
    ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['::FFFF:7F00:0001', '::ffff:7f00:1'],
    ['1::2:3.4.5.6', '1::2:304:506'],
  ])('%s -> %s', (input, canonical) => {
    expect(text(input)).toBe(canonical);
  });

  it('keeps the zone id apart', () => {
    expect(parseIp('fe80::1%eth0')).toMatchObject({ family: 6, zone: 'eth0' });
    expect(parseIp('fe80::1')?.zone).toBeUndefined();
  });

  it('formats to text node:net reads back to the same bytes', () => {
    fc.assert(
      fc.property(fc.ipV6(), (ip) => {
        const parsed = parseIp(ip);
        expect(parsed).not.toBeNull();
        expect(parseIp(formatIp(parsed!))?.bytes).toEqual(parsed!.bytes);
      }),
    );
  });

  it('folds mapped and compatible forms to IPv4, but not :: or ::1', () => {
    const unmapped = (ip: string) => formatIp(unmapIpv4(parseIp(ip)!));
    expect(unmapped('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(unmapped('::ffff:a00:1')).toBe('10.0.0.1');
    expect(unmapped('::10.0.0.1')).toBe('10.0.0.1');
    expect(unmapped('::1')).toBe('::1');
    expect(unmapped('::')).toBe('::');
    expect(unmapped('64:ff9b::1.2.3.4')).toBe('64:ff9b::102:304');
  });
});
