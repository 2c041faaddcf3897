import { describe, expect, it } from 'vitest';
import { axeViolations, seriousAxeViolations } from './support/axe';
import { useColorScheme } from './support/browser';
import { useAppInBrowser } from './support/session';

// The axe-core helper every e2e file can use: it must find what it is there to find, and say
// where, or a clean result means nothing. Nothing here starts Java.
const session = useAppInBrowser();

describe('the axe-core helper', () => {
  it('reports a serious violation it is shown, with the element and the reason', async () => {
    const page = await session.browser.context.newPage();
    try {
      await page.setContent(
        '<!doctype html><html lang="en"><title>t</title><body><main><h1>Probe</h1>' +
          '<p id="faint" style="color:#b0b0b0;background:#fff">hard to read</p>' +
          '<button id="nameless"></button><p id="other" style="color:#000;background:#fff">fine</p></main></body></html>',
      );
      const serious = await seriousAxeViolations(page);
      expect(serious.some((line) => /color-contrast at #faint: .*foreground color: #b0b0b0/.test(line))).toBe(
        true,
      );
      expect(serious.some((line) => line.includes('button-name at #nameless'))).toBe(true);
      expect(serious.join('\n')).not.toContain('#other');
      // Excluding an element leaves exactly that element out.
      const withoutButton = await axeViolations(page, { exclude: ['#nameless'] });
      expect(withoutButton.map((violation) => violation.id)).toEqual(['color-contrast']);
    } finally {
      await page.close();
    }
  });

  it('finds the connection picker clean of serious and critical violations in both themes', async () => {
    const page = await session.openPage();
    await page.getByRole('heading', { name: 'Local playground' }).waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await useColorScheme(page, scheme);
      expect(await seriousAxeViolations(page)).toEqual([]);
    }
    expect(session.browser.pageErrors).toEqual([]);
  });
});
