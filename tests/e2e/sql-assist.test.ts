import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_TABLE, sampleItems } from '../../resources/playground/sample-table';
import { defaultAgentSettings } from '../../src/shared/ipc/agent';
import { type FakeBedrock, startFakeBedrock } from '../support/fake-bedrock';
import { useColorScheme } from './support/browser';
import { useAppInBrowser } from './support/session';

// Ask → diff → Run in the SQL workbench, as a user meets it: the real browser-mode server and
// core, the playground's DynamoDB Local, Chromium, and the local Bedrock (real SDK, real wire
// protocol). The model first invents a table; the app sends it back once; the user sees the
// corrected proposal as a diff, nothing runs until Run, and the rows are then the right ones.
const slow = { timeout: 60_000 };

const session = useAppInBrowser({ withPlayground: true });
let fake: FakeBedrock;

beforeAll(async () => {
  fake = await startFakeBedrock();
});
afterAll(async () => {
  await fake.close();
});

const sqlBlock = (statement: string) => ({
  kind: 'text' as const,
  text: `\`\`\`sql\n${statement}\n\`\`\`\nCounts the orders per status.`,
});

describe('Ask in the SQL workbench', () => {
  it('proposes a statement as a diff, retries an invented table once, and runs only on Run', async () => {
    const page = await session.openPage();
    await page.getByRole('button', { name: 'Open playground' }).click();
    await page.getByRole('tab', { name: 'SQL' }).click(slow);
    await page.getByRole('button', { name: 'orders', exact: true }).waitFor(slow);
    // The assistant's settings point at the local Bedrock (the settings form is tested in agent.test.ts).
    const saved = await page.evaluate(
      async ({ settings }) => {
        const response = await fetch('/api/agent:saveSettings', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ connectionId: 'playground', settings }),
        });
        return response.ok;
      },
      { settings: { ...defaultAgentSettings, bedrockEndpoint: fake.endpoint } },
    );
    expect(saved).toBe(true);

    const statement = `SELECT status, COUNT(*) AS n FROM "${SAMPLE_TABLE}" WHERE begins_with(SK, 'ORDER#') GROUP BY status ORDER BY status`;
    fake.script = [
      sqlBlock('SELECT status, COUNT(*) AS n FROM all_orders GROUP BY status'),
      sqlBlock(statement),
    ];
    await page.getByRole('textbox', { name: 'SQL from words' }).fill('How many orders per status?');
    await page.getByRole('textbox', { name: 'SQL from words' }).press('Enter');

    const proposal = page.getByRole('region', { name: 'Proposed statement' });
    await proposal.waitFor(slow);
    await expect
      .poll(() => proposal.locator('.sql-diff .is-added').innerText(), slow)
      .toContain(`+ ${statement}`);
    await expect.poll(() => proposal.innerText()).toMatch(/all_orders/);
    await expect.poll(() => proposal.innerText()).toMatch(/Nothing has run/);
    await expect.poll(() => page.locator('.sql-grid').count()).toBe(0);
    // What went to Bedrock: names and types, no sample values (the box is off by default).
    const firstPrompt = JSON.stringify(fake.requests[0]?.body);
    expect(firstPrompt).toContain(SAMPLE_TABLE);
    const someName = sampleItems().find((i) => i.SK && 'S' in i.SK && i.SK.S === 'PROFILE')?.name;
    expect(someName && 'S' in someName ? firstPrompt.includes(someName.S) : true).toBe(false);

    await useColorScheme(page, 'light');
    await session.browser.screenshot('sql-assist-proposal-light');
    await useColorScheme(page, 'dark');
    await session.browser.screenshot('sql-assist-proposal-dark');
    await useColorScheme(page, 'light');

    await proposal.getByRole('button', { name: 'Use and run' }).click();
    await page.locator('.sql-grid').waitFor(slow);
    const expected = new Map<string, number>();
    for (const item of sampleItems()) {
      if (!item.SK || !('S' in item.SK) || !item.SK.S.startsWith('ORDER#')) continue;
      const status = item.status && 'S' in item.status ? item.status.S : '';
      expected.set(status, (expected.get(status) ?? 0) + 1);
    }
    await expect
      .poll(() => page.locator('.sql-result-bar').innerText(), slow)
      .toMatch(new RegExp(`^${expected.size} rows`));
    await expect.poll(() => page.getByRole('region', { name: 'Proposed statement' }).count()).toBe(0);
  });
});
