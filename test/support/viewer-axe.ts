// axe-core in a viewer page: its source is injected from node_modules (no network), and its
// findings come back as plain lines a failing expectation prints in full. The page's CSP forbids
// inline scripts, so the context must be opened with bypassCSP (AXE_CONTEXT).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Context options an axe check needs: the injected script is inline. */
export const AXE_CONTEXT = { bypassCSP: true } as const;

/** Every axe-core violation on the page as it is now: "rule (impact): target … — help". */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
    }
    const { violations } = await axe.run();
    return violations.flatMap((v) =>
      v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${v.help}`),
    );
  });
}
