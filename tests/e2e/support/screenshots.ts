import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { artifactsDir, useColorScheme } from './browser';

/** The window sizes the UI is designed for (HELPERS.md): every screenshot is taken at both. */
export const screenshotSizes = [
  { width: 1024, height: 700 },
  { width: 1440, height: 900 },
] as const;

export interface ScreenshotOptions {
  /** Where `target` lands in the window once scrolled to (default: its centre). */
  block?: ScrollLogicalPosition;
  /** Runs before each shot, e.g. asserting that focus still draws a ring at this size and theme. */
  check?: (page: Page) => Promise<void>;
}

/**
 * Whether shots are written. `npm test` sets `DYNOTABLE_SCREENSHOTS=0`: nobody looks at them
 * there, and they cost about a second a shot on a loaded machine (the table tools' light-theme
 * accessibility walk: 84 s with its 24 shots, 61 s without, at load 20; the suite takes ~380).
 * Run an e2e file directly (`npx vitest run --project e2e <file>`) to get them.
 */
const taking = process.env.DYNOTABLE_SCREENSHOTS !== '0';

/**
 * Resolves once the page has drawn twice since: what a resize or a change of scheme sets off
 * (layout, then the ResizeObservers that fit a cut name, and the layout they change) has run, as
 * it has before anything reaches the screen. Playwright's setViewportSize can return before that
 * frame: a check at 1440 px once measured the assistant's model name still at its width of the
 * layout before, 3.8 px blank after "cl…" (its 23.9 px box less the 20.1 px fitted), in a state
 * no user sees.
 */
async function drawn(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * `artifacts/<name>-<width>x<height>-<light|dark>.png` at both sizes and both themes, to look at
 * by eye. `target` (when given) is scrolled into view first, as a user would after a resize hides
 * it. The page is left as it was found: same viewport, light scheme. With shots off, the sizes and
 * themes are still walked when `check` has something to assert at each.
 */
export async function screenshots(
  page: Page,
  name: string,
  target?: Locator,
  options: ScreenshotOptions = {},
): Promise<void> {
  if (!taking && !options.check) return;
  const before = page.viewportSize();
  for (const size of screenshotSizes) {
    await page.setViewportSize(size);
    if (target)
      await target.evaluate((element, block) => element.scrollIntoView({ block }), options.block ?? 'center');
    for (const scheme of ['light', 'dark'] as const) {
      await useColorScheme(page, scheme);
      await drawn(page);
      await options.check?.(page);
      const file = path.join(artifactsDir, `${name}-${size.width}x${size.height}-${scheme}.png`);
      if (taking) await page.screenshot({ path: file, fullPage: false });
    }
  }
  if (before) await page.setViewportSize(before);
  await useColorScheme(page, 'light');
}
