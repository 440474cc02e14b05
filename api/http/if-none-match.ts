/** If-None-Match (RFC 9110 13.1.2): a list of entity tags, compared weakly, or `*`. */
export function matchesEtag(ifNoneMatch: string, etag: string): boolean {
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === opaque;
  });
}
