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
 * `artifacts/<name>-<width>x<height>-<light|dark>.png` at both sizes and both themes, to look at
 * by eye. `target` (when given) is scrolled into view first, as a user would after a resize hides
 * it. The page is left as it was found: same viewport, light scheme.
 */
export async function screenshots(
  page: Page,
  name: string,
  target?: Locator,
  options: ScreenshotOptions = {},
): Promise<void> {
  const before = page.viewportSize();
  for (const size of screenshotSizes) {
    await page.setViewportSize(size);
    if (target)
      await target.evaluate((element, block) => element.scrollIntoView({ block }), options.block ?? 'center');
    for (const scheme of ['light', 'dark'] as const) {
      await useColorScheme(page, scheme);
      await options.check?.(page);
      const file = path.join(artifactsDir, `${name}-${size.width}x${size.height}-${scheme}.png`);
      await page.screenshot({ path: file, fullPage: false });
    }
  }
  if (before) await page.setViewportSize(before);
  await useColorScheme(page, 'light');
}
