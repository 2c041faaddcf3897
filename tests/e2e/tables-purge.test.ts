import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { stoppedJobs } from '../../src/main/jobs/work-records';
import { createKeyedTable } from '../support/dynamo-tables';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// Purging a table like a user: the estimate, the typed name, progress, cancel, resume. The
// real browser-mode server and core, the playground's DynamoDB Local, Debian's Chromium.
const slow = { timeout: 120_000 };
const session = useAppInBrowser({ withPlayground: true });
const table = `Purge-${Date.now().toString(36)}`;
const total = 1500;

async function storedCount(): Promise<number> {
  let count = 0;
  let start: Record<string, never> | undefined;
  do {
    const page = await session.playgroundClient.send(
      new ScanCommand({ TableName: table, Select: 'COUNT', ConsistentRead: true, ExclusiveStartKey: start }),
    );
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey as typeof start;
  } while (start);
  return count;
}

/** Light and dark at both window sizes, with `target` in the middle of the view. */
describe('Purge a table', () => {
  it('shows the estimate, asks for the name, cancels mid-way, then resumes to an empty table', async () => {
    await createKeyedTable(session.playgroundClient, table, {
      items: Array.from({ length: total }, (_, i) => ({ id: { S: `item-${i}` }, n: { N: String(i) } })),
    });

    const page = await session.openPage();
    await openPlaygroundTable(page, table, 'Overview');
    const purge = page.getByRole('group', { name: 'Purge items' });
    await purge.scrollIntoViewIfNeeded();
    const estimate = purge.getByRole('list', { name: 'What the purge will cost' });
    await estimate.getByText(/DynamoDB reports about 1,500 items/).waitFor(slow);
    await expect.poll(() => estimate.innerText()).toMatch(/1,500 write units/);
    await expect.poll(() => estimate.innerText()).toMatch(/new ARN/);

    const button = purge.getByRole('button', { name: 'Purge items' });
    await expect.poll(() => button.isDisabled()).toBe(true);
    await purge.getByLabel('Type the table name to confirm').fill(`${table}x`);
    await expect.poll(() => button.isDisabled()).toBe(true);
    await purge.getByLabel('Type the table name to confirm').fill(table);
    // Slow enough to cancel part-way and to see the progress.
    await purge.getByLabel('Deletes per second at most').fill('150');
    await expect.poll(() => button.isDisabled()).toBe(false);
    await screenshots(page, 'tables-purge-confirm', button);
    await button.click();

    const stats = purge.getByRole('group', { name: 'Purging' });
    await stats.getByText(/(^|\s)[1-9][\d,]* deleted/).waitFor(slow);
    await stats.getByText(/items\/s/).waitFor();
    await purge.getByRole('progressbar', { name: 'Purging' }).waitFor();
    await screenshots(page, 'tables-purge-running', stats);
    await purge.getByRole('button', { name: 'Cancel purge' }).click();
    const stopped = purge.getByRole('status').filter({ hasText: /Stopped after/ });
    await stopped.waitFor(slow);
    const deletedFirst = Number(
      /Stopped after ([\d,]+) deleted/.exec(await stopped.innerText())?.[1]?.replace(/,/g, ''),
    );
    const left = await storedCount();
    expect(left).toBeGreaterThan(0);
    expect(total - left).toBe(deletedFirst);

    await purge.getByLabel('Deletes per second at most').fill('');
    await purge.getByRole('button', { name: 'Resume purge' }).click();
    await purge
      .getByRole('status')
      .filter({ hasText: `${table} is empty` })
      .waitFor(slow);
    expect((await purge.getByRole('status').innerText()).replace(/\s+/g, ' ')).toMatch(
      new RegExp(`Purged. ${left.toLocaleString('en-US')} deleted`),
    );
    await expect.poll(() => storedCount()).toBe(0);
    await screenshots(page, 'tables-purge-done', button);
    expect(session.browser.pageErrors).toEqual([]);
  }, 300_000);

  it('lists a cancelled purge after a reload with where it stopped; Resume, once the name is typed, empties the table', async () => {
    const other = `${table}-stopped`;
    await createKeyedTable(session.playgroundClient, other, {
      items: Array.from({ length: 600 }, (_, i) => ({ id: { S: `item-${i}` }, n: { N: String(i) } })),
    });
    const page = await session.openPage();
    await openPlaygroundTable(page, other, 'Overview');
    const purge = page.getByRole('group', { name: 'Purge items' });
    await purge.scrollIntoViewIfNeeded();
    await purge.getByLabel('Type the table name to confirm').fill(other);
    await purge.getByLabel('Deletes per second at most').fill('60');
    await purge.getByRole('button', { name: 'Purge items' }).click();
    await purge
      .getByRole('group', { name: 'Purging' })
      .getByText(/(^|\s)[1-9][\d,]* deleted/)
      .waitFor(slow);
    await purge.getByRole('button', { name: 'Cancel purge' }).click();
    const stopped = purge.getByRole('status').filter({ hasText: /Stopped after/ });
    await stopped.waitFor(slow);
    const deleted = /Stopped after ([\d,]+) deleted/.exec(await stopped.innerText())?.[1];
    expect(deleted).toBeDefined();

    // A new visit (the app reopened): the purge's record in the job store says where it stopped.
    await page.reload();
    await openPlaygroundTable(page, other, 'Overview');
    const list = page.getByRole('region', { name: `Purges of ${other} that did not finish` });
    await list.waitFor(slow);
    const sentence = await list.getByRole('listitem').innerText();
    expect(sentence).toContain(other);
    expect(sentence).toContain(`${deleted}`);
    await screenshots(page, 'tables-purge-stopped', list);

    // Resume asks for the same confirmation as a purge: the typed name.
    const resume = list.getByRole('button', { name: /^Resume the purge stopped/ });
    await expect.poll(() => resume.isDisabled()).toBe(true);
    await expect.poll(() => resume.getAttribute('title')).toMatch(/Type the table name/);
    await purge.getByLabel('Type the table name to confirm').fill(other);
    await expect.poll(() => resume.isDisabled()).toBe(false);
    await resume.click();
    await purge
      .getByRole('status')
      .filter({ hasText: `${other} is empty` })
      .waitFor(slow);
    const remaining = await session.playgroundClient.send(
      new ScanCommand({ TableName: other, Select: 'COUNT', ConsistentRead: true }),
    );
    expect(remaining.Count).toBe(0);
    // Done, the purge is forgotten in main too: the next visit lists nothing for the table.
    const left = await stoppedJobs(session.app.core, 'playground');
    expect(left.jobs.filter((job) => job.table === other)).toEqual([]);
    expect(session.browser.pageErrors).toEqual([]);
  }, 300_000);
});
