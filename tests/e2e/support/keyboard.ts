import type { Locator, Page } from 'playwright-core';

/**
 * Presses Tab (or Shift+Tab) until `target` has focus, as a keyboard user walks to a control;
 * fails when it is not reachable within `max` presses. Every stop on the way must show focus.
 */
export async function tabTo(
  page: Page,
  target: Locator,
  options: { back?: boolean; max?: number } = {},
): Promise<void> {
  await target.waitFor();
  for (let i = 0; i <= (options.max ?? 200); i++) {
    if (await isFocused(target)) {
      await expectFocusVisible(page);
      return;
    }
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}; focus is on ${await describeFocus(page)}`);
}

export const isFocused = (target: Locator): Promise<boolean> =>
  target.evaluate(
    (element) => element === document.activeElement || element.contains(document.activeElement),
  );

export async function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element) return 'nothing';
    return `<${element.tagName.toLowerCase()}> ${element.getAttribute('aria-label') ?? element.textContent.slice(0, 40)}`;
  });
}

/**
 * The focused element (or the code editor around it) draws a ring a sighted keyboard user can see.
 * CodeMirror marks itself focused (`cm-focused`, which draws its ring) a moment after the focus
 * event, so the ring is looked for over the next frames, up to a second, before it counts as missing.
 */
export async function expectFocusVisible(page: Page): Promise<void> {
  const ring = await page.evaluate(async () => {
    const problem = (): string => {
      const focused = document.activeElement;
      if (!focused || focused === document.body) return 'nothing is focused';
      const element = focused.closest('.cm-editor') ?? focused;
      const style = getComputedStyle(element);
      const hasOutline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1;
      const hasShadow = style.boxShadow !== 'none';
      return hasOutline || hasShadow
        ? ''
        : `no focus ring on <${element.tagName.toLowerCase()}> ${element.className}`;
    };
    const deadline = performance.now() + 1_000;
    while (problem() !== '' && performance.now() < deadline)
      await new Promise((resolve) => requestAnimationFrame(resolve));
    return problem();
  });
  if (ring) throw new Error(ring);
}
