import {
  DeleteItemCommand,
  DescribeTableCommand,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { createKeyedTable } from '../support/dynamo-tables';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// The stream tail like a user: another client writes, the panel shows the records with their
// diffs; pause holds them, the filter hides them. Real browser-mode core, DynamoDB Local, Chromium.
const slow = { timeout: 60_000 };
const session = useAppInBrowser({ withPlayground: true });
const table = `Tail-${Date.now().toString(36)}`;

describe('Stream tail', () => {
  it('shows an insert, a modify with its diff and a remove made by another client; pause and filter', async () => {
    const client = session.playgroundClient;
    await createKeyedTable(client, table, { stream: 'NEW_AND_OLD_IMAGES' });

    const page = await session.openPage();
    await openPlaygroundTable(page, table, 'Stream');
    const panel = page.getByRole('region', { name: 'Stream tail' });
    await panel.getByRole('button', { name: 'Follow stream' }).click(slow);
    await panel
      .getByRole('status')
      .filter({ hasText: /Following 1 shard of the NEW_AND_OLD_IMAGES stream/ })
      .waitFor(slow);

    await client.send(
      new PutItemCommand({
        TableName: table,
        Item: { id: { S: 'order-1' }, state: { S: 'NEW' }, total: { N: '12.50' } },
      }),
    );
    await client.send(
      new UpdateItemCommand({
        TableName: table,
        Key: { id: { S: 'order-1' } },
        UpdateExpression: 'SET #s = :paid, paidAt = :at',
        ExpressionAttributeNames: { '#s': 'state' },
        ExpressionAttributeValues: { ':paid': { S: 'PAID' }, ':at': { S: '2026-12-01T18:00:00Z' } },
      }),
    );
    await client.send(new DeleteItemCommand({ TableName: table, Key: { id: { S: 'order-1' } } }));

    const records = panel.getByRole('article');
    await expect.poll(() => records.count(), slow).toBe(3);
    // Newest first.
    expect(await records.evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-label')))).toEqual([
      'REMOVE id = order-1',
      'MODIFY id = order-1',
      'INSERT id = order-1',
    ]);
    const modify = panel.getByRole('article', { name: 'MODIFY id = order-1' });
    const stateRow = modify.getByRole('row', { name: /^state/ });
    await expect.poll(() => stateRow.getByRole('cell').allInnerTexts()).toEqual(['NEW', 'PAID']);
    await expect
      .poll(() =>
        modify
          .getByRole('row', { name: /^paidAt/ })
          .getByRole('cell')
          .allInnerTexts(),
      )
      .toEqual(['—', '2026-12-01T18:00:00Z']);
    // total did not change, so it is not in the diff.
    await expect.poll(() => modify.getByRole('row', { name: /^total/ }).count()).toBe(0);
    await screenshots(page, 'tables-stream-tail', panel, { block: 'start' });

    // The filter: only removals, then a key that matches nothing.
    await panel.getByRole('checkbox', { name: 'INSERT' }).uncheck();
    await panel.getByRole('checkbox', { name: 'MODIFY' }).uncheck();
    await expect.poll(() => records.count(), slow).toBe(1);
    await panel.getByLabel('Filter by key').fill('order-2');
    await expect.poll(() => records.count(), slow).toBe(0);
    await panel.getByLabel('Filter by key').fill('');
    await panel.getByRole('checkbox', { name: 'INSERT' }).check();
    await panel.getByRole('checkbox', { name: 'MODIFY' }).check();

    // Paused, new records are held and counted, then shown on resume.
    await panel.getByRole('button', { name: 'Pause' }).click();
    await client.send(new PutItemCommand({ TableName: table, Item: { id: { S: 'order-2' } } }));
    await panel.getByRole('status').filter({ hasText: 'paused, 1 new held' }).waitFor(slow);
    await expect.poll(() => records.count()).toBe(3);
    await panel.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => records.count(), slow).toBe(4);
    await expect.poll(() => records.first().getAttribute('aria-label')).toBe('INSERT id = order-2');

    await panel.getByRole('button', { name: 'Stop' }).click();
    await panel
      .getByRole('status')
      .filter({ hasText: /^Not following/ })
      .waitFor(slow);
    expect(session.browser.pageErrors).toEqual([]);
  }, 300_000);

  it('goes on following while the user works on Items, and stops when the table tab is closed', async () => {
    const client = session.playgroundClient;
    const { page } = session.browser;
    const panel = page.getByRole('region', { name: 'Stream tail' });
    const records = panel.getByRole('article');
    await panel.getByRole('button', { name: 'Follow stream' }).click(slow);
    const following = panel.getByRole('status').filter({ hasText: /Following 1 shard/ });
    await following.waitFor(slow);

    // Off to Items: the tail stays with the table, not with the Stream tab.
    await page.getByRole('tab', { name: 'Items', exact: true }).click();
    await panel.waitFor({ state: 'detached' });
    await client.send(new PutItemCommand({ TableName: table, Item: { id: { S: 'order-3' } } }));
    await page.getByRole('grid').getByText('order-3').or(page.getByRole('grid')).first().waitFor(slow);
    await page.getByRole('tab', { name: 'Stream', exact: true }).click();
    await following.waitFor(slow);
    await panel.getByRole('article', { name: 'INSERT id = order-3' }).waitFor(slow);
    await expect.poll(() => records.count()).toBe(1);

    // Closing the table's tab ends the tail; opening the table again starts from nothing.
    await page.getByTitle(`Close ${table}`).click();
    await panel.waitFor({ state: 'detached' });
    await openPlaygroundTable(page, table, 'Stream');
    await panel
      .getByRole('status')
      .filter({ hasText: /^Not following · 0 received/ })
      .waitFor(slow);
    expect(session.browser.pageErrors).toEqual([]);
  }, 300_000);

  it('turns the stream on from the Stream view of a table without one, saying first what it does', async () => {
    const client = session.playgroundClient;
    const bare = `NoTail-${Date.now().toString(36)}`;
    await createKeyedTable(client, bare);
    // A fresh page lists the table made behind the app's back.
    const page = await session.openPage();
    await openPlaygroundTable(page, bare, 'Stream');
    const panel = page.getByRole('region', { name: 'Stream tail' });
    const offer = panel.getByRole('group', { name: 'Turn on the stream' });
    await offer.getByText(`Streams are off for ${bare}, so there is nothing to follow.`).waitFor(slow);
    await offer.getByRole('button', { name: 'Turn on stream…' }).click();
    // What it does is said before anything is sent.
    await expect
      .poll(() => offer.innerText())
      .toContain(`Every write to ${bare} is recorded for 24 hours in a new stream (NEW_AND_OLD_IMAGES).`);
    await screenshots(page, 'stream-turn-on', panel, { block: 'start' });
    await offer.getByRole('button', { name: 'Turn on stream', exact: true }).click();
    // The view becomes the tail once DynamoDB says the stream is on.
    await panel.getByRole('button', { name: 'Follow stream' }).waitFor(slow);
    const described = await client.send(new DescribeTableCommand({ TableName: bare }));
    expect(described.Table?.StreamSpecification).toEqual({
      StreamEnabled: true,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    });
    await panel.getByRole('button', { name: 'Follow stream' }).click();
    await panel
      .getByRole('status')
      .filter({ hasText: /Following 1 shard/ })
      .waitFor(slow);
    await client.send(new PutItemCommand({ TableName: bare, Item: { id: { S: 'first' } } }));
    await panel.getByRole('article', { name: 'INSERT id = first' }).waitFor(slow);
    await panel.getByRole('button', { name: 'Stop' }).click();
    expect(session.browser.pageErrors).toEqual([]);
  }, 300_000);
});
