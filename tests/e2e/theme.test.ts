import { describe, expect, it } from 'vitest';
import { useColorScheme } from './support/browser';
import { useAppInBrowser } from './support/session';

// The palette is written once (light-dark() in styles/theme.css); which half shows depends on the
// system's preference unless the toggle picked one. Nothing here starts Java.
const white = 'rgb(255, 255, 255)';
const darkBackground = 'rgb(15, 18, 22)';

const session = useAppInBrowser();

const background = (): Promise<string> =>
  session.browser.page.evaluate(() => getComputedStyle(document.body).backgroundColor);

async function choose(label: 'Theme: follows the system' | 'Theme: light' | 'Theme: dark'): Promise<void> {
  const toggle = session.browser.page.getByRole('button', { name: /^Theme:/ });
  for (let i = 0; i < 3 && (await toggle.getAttribute('aria-label')) !== label; i++) await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-label')).toBe(label);
}

describe('the theme', () => {
  it('follows the system until a choice is made', async () => {
    const page = await session.openPage();
    await page.getByRole('heading', { name: 'Local playground' }).waitFor();
    await choose('Theme: follows the system');
    await useColorScheme(page, 'light');
    await expect.poll(() => background()).toBe(white);
    await useColorScheme(page, 'dark');
    await expect.poll(() => background()).toBe(darkBackground);
  });

  it('keeps an explicit choice against the system preference, across a reload', async () => {
    const { page } = session.browser;
    await useColorScheme(page, 'dark');
    await choose('Theme: light');
    await expect.poll(() => background()).toBe(white);

    await useColorScheme(page, 'light');
    await choose('Theme: dark');
    await expect.poll(() => background()).toBe(darkBackground);
    await page.reload();
    await page.getByRole('heading', { name: 'Local playground' }).waitFor();
    await expect.poll(() => background()).toBe(darkBackground);

    await choose('Theme: follows the system');
    await expect.poll(() => background()).toBe(white);
    expect(session.browser.pageErrors).toEqual([]);
  });
});
