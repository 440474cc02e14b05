// Links in README.md and docs/*.md that cannot rot. The rules, decided once:
// - A relative link names a file or folder of this repository (resolved from the file it is in),
//   and its `#anchor`, when it has one, a heading of that Markdown file. A bare `#anchor` names a
//   heading of the same file.
// - Any other link is http(s) to a public host: never localhost, a loopback, private or link-local
//   address, or a `.local`/`.internal` name. Example commands naming `localhost` belong in code
//   (fenced blocks and `inline code`), which is not a link and not checked here.
// - Nothing anywhere in the docs, code included, points at `../shared`: a clone does not have it.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, docFiles, linksOf, readDoc } from '../../support/markdown.ts';
import { REPO_ROOT } from '../../support/repo.ts';

const docs = docFiles();

function nonPublicHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h.endsWith('.local') ||
    h.endsWith('.internal') ||
    /^(127\.|10\.|192\.168\.|169\.254\.|0\.)/.test(h) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(h) ||
    h === '::1' ||
    /^f[cd]|^fe80:/.test(h)
  );
}

describe.each(docs.map((doc) => ({ doc, path: doc.path })))('links in $path', ({ doc }) => {
  it('are relative links that resolve, or links to public sites', () => {
    const broken: string[] = [];
    for (const { target, line } of linksOf(doc)) {
      const where = `${doc.path}:${line} ${target}`;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
        const url = new URL(target);
        if (url.protocol !== 'https:' && url.protocol !== 'http:') broken.push(`${where}: not a web link`);
        else if (nonPublicHost(url.hostname)) broken.push(`${where}: not a public site`);
        continue;
      }
      const [file, anchor] = target.split('#', 2) as [string, string | undefined];
      const path =
        file === '' ? join(REPO_ROOT, doc.path) : join(REPO_ROOT, dirname(doc.path), decodeURI(file));
      const inRepo = relative(REPO_ROOT, path);
      if (inRepo.startsWith('..')) {
        broken.push(`${where}: leaves the repository`);
        continue;
      }
      if (!existsSync(path)) {
        broken.push(`${where}: no such file`);
        continue;
      }
      if (anchor !== undefined) {
        if (statSync(path).isDirectory() || !path.endsWith('.md'))
          broken.push(`${where}: anchor into a non-Markdown file`);
        else if (!anchorsOf(readDoc(inRepo)).has(anchor)) broken.push(`${where}: no such heading`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('never point at ../shared, even in code', () => {
    const lines = doc.text
      .split('\n')
      .flatMap((l, i) => (l.includes('../shared') ? [`${doc.path}:${i + 1}`] : []));
    expect(lines).toEqual([]);
  });
});

describe('the link checker itself', () => {
  it('finds links in prose but not in code, and the anchors GitHub gives headings', () => {
    const api = readDoc('docs/api.md');
    expect(linksOf(api).length).toBeGreaterThan(5);
    expect(linksOf(api).map((l) => l.target)).toContain('#how-a-client-should-behave');
    expect(linksOf(api).some((l) => l.target.includes('localhost'))).toBe(false);
    expect(anchorsOf(api)).toContain('post-pluginv1claim-claim-with-a-code');
    expect(anchorsOf(readDoc('README.md'))).toContain('configuration');
  });
});
