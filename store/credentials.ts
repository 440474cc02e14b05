import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

// A credential is `sbk_` + 32 base62 characters of randomness (about 190 bits) + 6 base62
// characters of CRC32 over them. The fixed prefix and the checksum let secret scanners spot a
// leaked key with no false positives, and let us refuse a mistyped key without a lookup.
// Only the SHA-256 of a credential is stored; lookups go by that hash, so the time a lookup
// takes says nothing about how close a guess came.

export const CREDENTIAL_PREFIX = 'sbk_';
const BODY_LENGTH = 32;
const CHECK_LENGTH = 6;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_PATTERN = new RegExp(`^[0-9A-Za-z]{${BODY_LENGTH + CHECK_LENGTH}}$`);

function base62(value: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    // Rejection sampling keeps every character uniform: 248 = 4 * 62.
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

function checksum(body: string): string {
  return base62(crc32(body), CHECK_LENGTH);
}

export function newCredential(): string {
  const body = randomBase62(BODY_LENGTH);
  return `${CREDENTIAL_PREFIX}${body}${checksum(body)}`;
}

/** Shape and checksum only; says nothing about whether the credential was ever issued. */
export function isWellFormedCredential(value: string): boolean {
  return value.startsWith(CREDENTIAL_PREFIX) && isCredentialBody(value.slice(CREDENTIAL_PREFIX.length));
}

/** A credential without its prefix: 38 base62 characters whose last 6 are the checksum of the rest. */
export function isCredentialBody(value: string): boolean {
  if (!BODY_PATTERN.test(value)) return false;
  return value.slice(-CHECK_LENGTH) === checksum(value.slice(0, BODY_LENGTH));
}

export function hashCredential(credential: string): string {
  return createHash('sha256').update(credential).digest('hex');
}

/** How many credentials credentialLookupHash remembers (about 10,000 × 150 bytes). */
const REMEMBERED_HASHES_MAX = 10_000;
const rememberedHashes = new Map<string, string>();

/**
 * The hash a credential is looked up by, or '' for one that cannot be valid. A game server sends
 * the same key with every report, so the hashes of well-formed credentials are remembered
 * (a bounded memo, the oldest dropped first): the checksum and SHA-256 were 5 % of a report's
 * CPU. Malformed ones are not, so junk cannot push real keys out.
 */
export function credentialLookupHash(credential: string): string {
  const remembered = rememberedHashes.get(credential);
  if (remembered !== undefined) return remembered;
  if (!isWellFormedCredential(credential)) return '';
  const hash = hashCredential(credential);
  if (rememberedHashes.size >= REMEMBERED_HASHES_MAX) {
    rememberedHashes.delete(rememberedHashes.keys().next().value!);
  }
  rememberedHashes.set(credential, hash);
  return hash;
}
