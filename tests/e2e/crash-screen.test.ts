import { describe, expect, it } from 'vitest';
import { useAppInBrowser } from './support/session';

// Without an error boundary React unmounts the whole app on a drawing defect: a blank window,
// nothing to click. This breaks a browser built-in the table list draws its counts with, the way
// faulty-dynamo breaks DynamoDB, and checks what the user sees instead.
const slow = { timeout: 120_000 };
const session = useAppInBrowser({ withPlayground: true });

interface Patched {
  restoreFormatting(): void;
}

describe('a defect while drawing a screen', () => {
  it('is said in a sentence with a way back, and the app works again after it', async () => {
    const page = await session.openPage();
    const open = page.getByRole('button', { name: 'Open playground' });
    await open.waitFor(slow);
    await page.evaluate(() => {
      const original = Number.prototype.toLocaleString;
      (window as unknown as Patched).restoreFormatting = () => {
        Number.prototype.toLocaleString = original;
      };
      Number.prototype.toLocaleString = () => {
        throw new TypeError('Counts cannot be formatted (a defect this test injected).');
      };
    });
    await open.click();

    const alert = page.getByRole('alert').filter({ hasText: 'DynoTable could not draw this screen.' });
    await alert.waitFor(slow);
    const text = await alert.innerText();
    expect(text).toContain('nothing was written');
    expect(text).toContain('Counts cannot be formatted (a defect this test injected).');
    expect(text).not.toMatch(/\n\s+at /);
    await session.browser.screenshotBothSchemes('crash-screen');

    await page.evaluate(() => (window as unknown as Patched).restoreFormatting());
    await page.getByRole('button', { name: 'Back to connections' }).click();
    await page.getByRole('heading', { name: 'Local playground' }).waitFor();
    await open.click();
    const row = page.getByTestId('table-row').filter({ hasText: 'DynoTableSample' });
    await row.waitFor(slow);
    await expect.poll(() => row.innerText()).toMatch(/\d/);
  });
});
