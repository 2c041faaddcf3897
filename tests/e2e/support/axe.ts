import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/** What axe-core reports for one rule, reduced to what a failing test needs to show. */
export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  /** The offending elements' CSS selectors and axe's sentence about each. */
  nodes: { target: string; summary: string }[];
}

export interface AxeCheckOptions {
  /** CSS selectors axe should leave out (e.g. a component another change is rewriting). */
  exclude?: string[];
  /** Limit the check to this element instead of the whole document. */
  include?: string;
  /** Run only these rules (all impacts), e.g. the ARIA structure rules a component must keep. */
  rules?: string[];
}

// Read once per test file: the minified build is ~550 kB, and injecting the source (not a
// <script src>) keeps it working under the app's strict CSP.
let axeSource: string | undefined;
const source = (): string => (axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));

interface AxeResultsLike {
  violations: {
    id: string;
    impact?: AxeViolation['impact'];
    help: string;
    nodes: { target: unknown[]; failureSummary?: string }[];
  }[];
}

/** Runs axe-core (WCAG 2.x A/AA and best practices) on what the page shows now. */
export async function axeViolations(page: Page, options: AxeCheckOptions = {}): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(source());
  const results = await page.evaluate(
    async ({ include, exclude, rules }) => {
      const context = { include: include ? [include] : [document], exclude: exclude.map((s) => [s]) };
      const axe = (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<unknown> } }).axe;
      const only = rules ? { runOnly: { type: 'rule', values: rules } } : {};
      return axe.run(context, { resultTypes: ['violations'], ...only });
    },
    { include: options.include, exclude: options.exclude ?? [], rules: options.rules },
  );
  return (results as AxeResultsLike).violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact ?? null,
    help: violation.help,
    nodes: violation.nodes.map((node) => ({
      target: node.target.map(String).join(' '),
      summary: node.failureSummary ?? '',
    })),
  }));
}

export const isSeriousOrCritical = (violation: AxeViolation): boolean =>
  violation.impact === 'serious' || violation.impact === 'critical';

/** One line per violating element, so a failing assertion names what to fix. */
export function describeViolations(violations: AxeViolation[]): string[] {
  return violations.flatMap((violation) =>
    violation.nodes.map((node) => {
      // axe's own sentence: the colours and ratio for contrast, the missing parts for ARIA.
      const why = node.summary.split('\n').slice(1, 3).join(' ').trim();
      return `${violation.impact ?? '?'} ${violation.id} at ${node.target}: ${violation.help}${why ? ` (${why})` : ''}`;
    }),
  );
}

/**
 * The serious and critical violations on the page now, as sentences (empty when clean); moderate
 * and minor ones are left to docs/ACCESSIBILITY.md. Use as `expect(await seriousAxeViolations(page)).toEqual([])`.
 */
export async function seriousAxeViolations(page: Page, options: AxeCheckOptions = {}): Promise<string[]> {
  return describeViolations((await axeViolations(page, options)).filter(isSeriousOrCritical));
}
