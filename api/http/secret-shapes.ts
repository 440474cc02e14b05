import { normalizeClaimCode } from '../../store/claim-codes.ts';
import { CREDENTIAL_PREFIX, isCredentialBody } from '../../store/credentials.ts';

// What a client may have sent by mistake where we log or echo it (a request id, a path): text
// shaped like a server key or a claim code is never written back or logged.

// Text that reads as a claim code but is a seed (all digits) or one of our path words (all small
// letters: "protection", "detections"). So a code with no digit written in small letters (about 1
// in 40) or with no letter (1 in 100,000) is missed: the price of seeds and routes in the log.
const SEED_OR_WORD = /^(?:\d+|[a-z]+)$/;

/** A key (with its `sbk_` prefix, or its 38 characters with a valid checksum) or a claim code. */
export function looksSecret(text: string): boolean {
  return (
    text.toLowerCase().includes(CREDENTIAL_PREFIX) ||
    isCredentialBody(text) ||
    (normalizeClaimCode(text) !== null && !SEED_OR_WORD.test(text))
  );
}

// A client's request id is kept, so one id can follow a request through a CDN, only when it is a
// plain token that could be no secret.
const PLAIN_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The client's X-Request-Id when it may be kept, else undefined (a fresh id is made). */
export function acceptedRequestId(given: string | string[] | undefined): string | undefined {
  return typeof given === 'string' && PLAIN_ID.test(given) && !looksSecret(given) ? given : undefined;
}

const SEGMENT = /[^/]+/g;

/** How many paths with nothing to redact are remembered: most logged paths are a few fixed routes. */
const REMEMBERED_PATHS = 1024;
const plainPaths = new Set<string>();

/** `path` (no query) with every segment that looks secret written as `[redacted]`. */
export function redactPath(path: string): string {
  if (plainPaths.has(path)) return path;
  const redacted = path.replace(SEGMENT, (segment) =>
    looksSecret(decoded(segment)) ? '[redacted]' : segment,
  );
  // Only paths with nothing secret are kept (no key lingers here); forgotten all at once when
  // full: a few scans per thousand distinct paths, no LRU upkeep.
  if (redacted === path) {
    if (plainPaths.size >= REMEMBERED_PATHS) plainPaths.clear();
    plainPaths.add(path);
  }
  return redacted;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
