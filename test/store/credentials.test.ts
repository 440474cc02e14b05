import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CREDENTIAL_PREFIX,
  credentialLookupHash,
  hashCredential,
  isWellFormedCredential,
  newCredential,
} from '../../store/credentials.ts';
import type { StoreRedis } from '../../store/index.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { newKey } from '../support/keys.ts';
import { sendReport, validReport } from '../support/requests.ts';
import { send } from '../support/http.ts';

// README "Blocking API notes": a credential is `sbk_` + 32 random base62 characters + a
// 6-character CRC32 checksum; only its SHA-256 is stored. Spec 2.1: it begins with a fixed
// service-specific prefix and is returned only once.

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SHAPE = /^sbk_[0-9A-Za-z]{38}$/;

describe('newCredential', () => {
  const many = Array.from({ length: 1000 }, () => newCredential());

  it('is sbk_ + 38 base62 characters, and well-formed', () => {
    expect(CREDENTIAL_PREFIX).toBe('sbk_');
    for (const credential of many) {
      expect(credential).toMatch(SHAPE);
      expect(isWellFormedCredential(credential)).toBe(true);
    }
  });

  it('1000 generated are all different', () => {
    expect(new Set(many).size).toBe(1000);
    // Nor do their random parts repeat.
    expect(new Set(many.map((c) => c.slice(4, 36))).size).toBe(1000);
  });

  it('uses the whole base62 alphabet in the random part', () => {
    const seen = new Set(many.flatMap((c) => [...c.slice(4, 36)]));
    expect([...seen].sort().join('')).toBe([...BASE62].sort().join(''));
  });
});

describe('isWellFormedCredential', () => {
  const samples = Array.from({ length: 5 }, () => newCredential());

  it('the checksum catches every single-character change, anywhere after the prefix', () => {
    let changed = 0;
    for (const credential of samples) {
      for (let i = CREDENTIAL_PREFIX.length; i < credential.length; i++) {
        for (const c of BASE62) {
          if (c === credential[i]) continue;
          const mistyped = credential.slice(0, i) + c + credential.slice(i + 1);
          expect(isWellFormedCredential(mistyped), mistyped).toBe(false);
          changed++;
        }
      }
    }
    expect(changed).toBe(samples.length * 38 * 61);
  });

  it('catches two swapped neighbouring characters', () => {
    for (const credential of samples) {
      for (let i = 4; i < credential.length - 1; i++) {
        if (credential[i] === credential[i + 1]) continue;
        const swapped = credential.slice(0, i) + credential[i + 1] + credential[i] + credential.slice(i + 2);
        expect(isWellFormedCredential(swapped), swapped).toBe(false);
      }
    }
  });

  it.each([
    ['an empty string', () => ''],
    ['another prefix', (c: string) => `sbx_${c.slice(4)}`],
    ['the prefix in upper case', (c: string) => `SBK_${c.slice(4)}`],
    ['no prefix', (c: string) => c.slice(4)],
    ['one character short', (c: string) => c.slice(0, -1)],
    ['one character more', (c: string) => `${c}0`],
    ['surrounding spaces', (c: string) => ` ${c} `],
    ['a trailing newline', (c: string) => `${c}\n`],
    ['a non-base62 character', (c: string) => `${c.slice(0, 10)}-${c.slice(11)}`],
    ['a non-ASCII character', (c: string) => `${c.slice(0, 10)}é${c.slice(11)}`],
  ])('refuses %s', (_name, change) => {
    for (const credential of samples) expect(isWellFormedCredential(change(credential))).toBe(false);
  });
});

describe('hashCredential', () => {
  it('is the SHA-256 hex of the credential', () => {
    const credential = newCredential();
    expect(hashCredential(credential)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashCredential(credential)).toBe(hashCredential(credential));
    expect(hashCredential(credential)).not.toBe(hashCredential(newCredential()));
    // Known vector: SHA-256("abc").
    expect(hashCredential('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('credentialLookupHash', () => {
  it('is the hash of a well-formed credential, asked once or again (remembered)', () => {
    const credential = newCredential();
    expect(credentialLookupHash(credential)).toBe(hashCredential(credential));
    expect(credentialLookupHash(credential)).toBe(hashCredential(credential));
  });

  it("is '' for a credential that cannot be valid, even one asked before", () => {
    const credential = newCredential();
    const mistyped = `${credential.slice(0, -1)}${credential.endsWith('0') ? '1' : '0'}`;
    for (let i = 0; i < 2; i++) {
      expect(credentialLookupHash(mistyped)).toBe('');
      expect(credentialLookupHash(credential.slice(4))).toBe('');
      expect(credentialLookupHash('')).toBe('');
    }
  });

  it('stays right past the number it remembers (the oldest are dropped, then hashed again)', () => {
    const first = newCredential();
    const firstHash = credentialLookupHash(first);
    for (let i = 0; i < 10_050; i++) credentialLookupHash(newCredential());
    expect(credentialLookupHash(first)).toBe(firstHash);
    const last = newCredential();
    expect(credentialLookupHash(last)).toBe(hashCredential(last));
  });
});

describe('only the hash of a credential is stored', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ PROBE_ALLOW_PRIVATE: '1' });
  });
  afterAll(async () => {
    await api.close();
  });

  /** Every key name and every stored value under the test's prefix, as one text. */
  async function dumpPrefix(redis: StoreRedis, prefix: string): Promise<string> {
    const parts: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        parts.push(key);
        const type = await redis.type(key);
        if (type === 'string') parts.push((await redis.get(key)) ?? '');
        else if (type === 'hash') parts.push(...Object.entries(await redis.hgetall(key)).flat());
        else if (type === 'set') parts.push(...(await redis.smembers(key)));
        else if (type === 'zset') parts.push(...(await redis.zrange(key, '0', '-1', 'WITHSCORES')));
        else if (type === 'list') parts.push(...(await redis.lrange(key, 0, -1)));
        else parts.push(`<${type}>`);
      }
    } while (cursor !== '0');
    return parts.join('\n');
  }

  it('after issuing, using and revoking keys of both kinds, no credential appears in Redis', async () => {
    const http = await newKey(api, 'http');
    const self = await newKey(api, 'self');
    const revoked = await api.store.issueHttpKey({ owner: 'someone', label: 'to be revoked' });
    for (const key of [http, self, revoked]) {
      expect((await sendReport(api, key.credential, validReport({ seed: 31337 }))).status).toBe(200);
    }
    const res = await send(`${api.base}/v1/servers/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${revoked.credential}` },
    });
    expect(res.status).toBe(200);

    const stored = await dumpPrefix(api.store.ctx.redis, api.config.REDIS_PREFIX);
    // The dump does hold the registrations (so the check below looks at real data) ...
    for (const key of [http, self]) {
      expect(stored).toContain(key.serverId);
      expect(stored).toContain(hashCredential(key.credential));
    }
    // ... but never a credential, nor its random part.
    for (const key of [http, self, revoked]) {
      expect(stored).not.toContain(key.credential);
      expect(stored).not.toContain(key.credential.slice(CREDENTIAL_PREFIX.length));
    }
    // A revoked key's hash no longer finds it.
    expect(stored).not.toContain(`credential:${hashCredential(revoked.credential)}`);
  });
});
