// The project's documentation as the docs tests read it: README.md and every docs/*.md, split
// into prose (where links live) and fenced code blocks (where example commands live).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT } from './repo.ts';

export interface DocFile {
  /** Path from the repository root, e.g. docs/api.md. */
  path: string;
  text: string;
  /** The text with fenced code blocks and inline code blanked out (same line numbers). */
  prose: string;
  /** Fenced code blocks with their info string (`sh`, `json`, …). */
  blocks: { lang: string; body: string; line: number }[];
}

const FENCE = /^```(\S*)\s*$/;

export function readDoc(path: string): DocFile {
  const text = readFileSync(join(REPO_ROOT, path), 'utf8');
  const blocks: DocFile['blocks'] = [];
  const prose: string[] = [];
  let open: { lang: string; lines: string[]; line: number } | null = null;
  text.split('\n').forEach((line, i) => {
    const fence = FENCE.exec(line);
    if (open) {
      if (line.startsWith('```')) {
        blocks.push({ lang: open.lang, body: open.lines.join('\n'), line: open.line });
        open = null;
      } else open.lines.push(line);
      prose.push('');
    } else if (fence) {
      open = { lang: fence[1]!, lines: [], line: i + 2 };
      prose.push('');
    } else prose.push(line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length)));
  });
  return { path, text, prose: prose.join('\n'), blocks };
}

/** README.md and every Markdown file under docs/. */
export function docFiles(): DocFile[] {
  const docs = readdirSync(join(REPO_ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs.sort()].map(readDoc);
}

/** Every link target in the prose: [text](target), ![alt](target) and <scheme://autolink>. */
export function linksOf(doc: DocFile): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  doc.prose.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      links.push({ target: m[1]!, line: i + 1 });
    for (const m of line.matchAll(/<([a-z][a-z0-9+.-]*:[^>\s]+)>/gi))
      links.push({ target: m[1]!, line: i + 1 });
  });
  return links;
}

/** GitHub's anchors of a file's headings: lower case, punctuation dropped, spaces to dashes. */
export function anchorsOf(doc: DocFile): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const prose = doc.prose.split('\n');
  // Headings outside code blocks (a code block's `# comment` is no heading).
  for (const line of doc.text.split('\n').filter((_, i) => prose[i]!.startsWith('#'))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}
