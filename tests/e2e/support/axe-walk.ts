import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { axeViolations, describeViolations, isSeriousOrCritical, type AxeCheckOptions } from './axe';
import { artifactsDir } from './browser';
import { screenshotSizes } from './screenshots';

/** Per theme: the serious/critical sentences found, and counts by impact for the report. */
export interface Findings {
  serious: string[];
  counts: Map<string, number>;
  /** Every violation by screen and size, written to the artifacts for docs/ACCESSIBILITY.md. */
  all: string[];
}

export const noFindings = (): Findings => ({ serious: [], counts: new Map(), all: [] });

/** Runs axe on what the page shows now, at each designed window size, adding to `findings`. */
export async function check(
  page: Page,
  findings: Findings,
  screen: string,
  options: AxeCheckOptions = {},
): Promise<void> {
  for (const size of screenshotSizes) {
    await page.setViewportSize(size);
    const violations = await axeViolations(page, options);
    for (const violation of violations) {
      const impact = violation.impact ?? 'unknown';
      findings.counts.set(impact, (findings.counts.get(impact) ?? 0) + violation.nodes.length);
    }
    findings.all.push(...describeViolations(violations).map((line) => `${screen} ${size.width}: ${line}`));
    findings.serious.push(
      ...describeViolations(violations.filter(isSeriousOrCritical)).map(
        (line) => `${screen} ${size.width}×${size.height}: ${line}`,
      ),
    );
  }
}

/** The counts and lines feed docs/ACCESSIBILITY.md; kept with the screenshots as `<name>.json`. */
export async function report(name: string, findings: Findings): Promise<void> {
  const counts = Object.fromEntries(findings.counts);
  await writeFile(
    path.join(artifactsDir, `${name}.json`),
    JSON.stringify({ counts, all: findings.all }, null, 1),
  );
}
