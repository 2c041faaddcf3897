import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SAMPLE_TABLE } from '../../resources/playground/sample-table';
import { resultJson } from '../support/mcp-result';
import { useFakeBedrock } from './support/assistant';
import {
  openItemInEditor,
  orderKey as keyOf,
  ordersWithCurrency,
  rawSampleItem,
  scanPlaygroundTable,
  valueText,
} from './support/grid-rows';
import { useMcpHttpClient } from './support/mcp-client';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// Writes the user approves for an agent, walked in Debian's Chromium against the browser-mode
// server and the playground's DynamoDB Local, with the item open in the editor and on screen in
// the grid: the in-app assistant (the fake Bedrock Runtime scripts its proposal) and a coding
// agent over MCP (the official SDK client on the app's HTTP transport). Both views show the new
// value, History lists the write under its source at once — and the undo of it too, without
// "Reload list" — and Undo puts back exactly DynamoDB Local's raw wire JSON of before.
const table = SAMPLE_TABLE;
const slow = { timeout: 60_000 };

const session = useAppInBrowser({ withPlayground: true });
const bedrock = useFakeBedrock();
const page = () => session.browser.page;
const editor = () => page().getByRole('complementary', { name: 'Item editor' });
const assistant = () => page().getByRole('complementary', { name: 'Assistant' });
const history = () => page().getByRole('dialog', { name: `Undo history — ${table}` });
const entries = () => history().getByRole('list', { name: 'Recent writes' }).getByRole('listitem');
const editorCurrency = () => editor().getByLabel('currency', { exact: true }).inputValue();

const orders = ordersWithCurrency();
const rawItem = (key: [string, string]) => rawSampleItem(session.playgroundEndpoint, key);

const coder = useMcpHttpClient(session, 'e2e-journal', '1.0.0');

const openInEditor = ([pk, sk]: [string, string]): Promise<Locator> => openItemInEditor(page(), pk, sk);

/**
 * From History: the newest entry is the approved write under its source and words; its Undo puts
 * the item back, and the undo lists on top at once, while History stays open.
 */
async function undoFromHistory(source: string, reason: string): Promise<void> {
  await page().getByRole('button', { name: 'Undo history…' }).click();
  // The entry's words name who wrote and why, once: no title or tag saying it again.
  await expect.poll(() => entries().first().locator('strong').innerText(), slow).toBe(reason);
  await screenshots(page(), `journal-${source.toLowerCase()}-history`, history());
  await entries()
    .first()
    .getByRole('button', { name: /^Undo "/ })
    .click();
  // The undo is a write of its own, journaled: History shows it on top without being reloaded,
  // and the write undone says so, offering Redo where its Undo was.
  await expect.poll(() => entries().first().locator('strong').innerText(), slow).toBe(`Undo of "${reason}"`);
  await expect.poll(() => entries().nth(1).locator('strong').innerText(), slow).toBe(reason);
  await entries()
    .nth(1)
    .getByText(/^Undone .*: 1 item put back$/)
    .waitFor(slow);
  await entries()
    .nth(1)
    .getByRole('button', { name: /^Redo "/ })
    .waitFor(slow);
  await history().getByRole('button', { name: 'Close', exact: true }).click();
}

describe('approved agent writes show everywhere and are undone exactly', () => {
  it('the in-app assistant: grid and open editor follow, History lists it as Agent, Undo restores the raw item', async () => {
    const p = await session.openPage();
    const saved = await p.evaluate(async (endpoint) => {
      const post = (channel: string, body: unknown) =>
        fetch(`/api/${channel}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        }).then((r) => r.json() as Promise<{ ok: boolean; value: Record<string, unknown> }>);
      const current = await post('agent:getSettings', { connectionId: 'playground' });
      return post('agent:saveSettings', {
        connectionId: 'playground',
        settings: { ...current.value, bedrockEndpoint: endpoint, bedrockRegion: 'us-east-1' },
      });
    }, bedrock.fake.endpoint);
    expect(saved.ok).toBe(true);
    await scanPlaygroundTable(p, table, /^\d+ items/);
    const key = keyOf(20);
    const row = await openInEditor(key);
    const loaded = valueText(orders[20]!.currency);
    await expect.poll(editorCurrency, slow).toBe(loaded);
    const original = await rawItem(key);

    const reason = 'Settle the order in gold';
    bedrock.fake.script = [
      { kind: 'tool', tools: [{ name: 'describe_table', input: { table } }] },
      {
        kind: 'tool',
        tools: [
          {
            name: 'propose_changes',
            input: {
              reason,
              changes: [
                { action: 'update', table, partitionKey: key[0], sortKey: key[1], set: { currency: 'XAU' } },
              ],
            },
          },
        ],
      },
      { kind: 'text', text: 'The order is now in gold.' },
    ];
    await p.getByTestId('top-bar').getByRole('button', { name: 'Assistant' }).click();
    await assistant().getByRole('textbox', { name: 'Question for the assistant' }).fill('Settle it in gold');
    await assistant().getByRole('button', { name: 'Ask', exact: true }).click();
    const card = assistant().getByRole('region', { name: 'Approval needed' }).last();
    await card.getByRole('button', { name: 'Approve and write' }).click(slow);
    await card.getByRole('status').filter({ hasText: 'Approved: 1 of 1 written.' }).waitFor(slow);
    await assistant().getByText('The order is now in gold.').waitFor(slow);
    await p.getByTestId('top-bar').getByRole('button', { name: 'Assistant' }).click();

    // The grid's row and the open editor show what DynamoDB now holds.
    await expect.poll(editorCurrency, slow).toBe('XAU');
    await expect.poll(() => row.innerText(), slow).toContain('XAU');
    await screenshots(p, 'journal-agent-write-views');
    await expect.poll(() => rawItem(key)).toContain('"currency":{"S":"XAU"}');

    await undoFromHistory('Agent', `Agent: ${reason}`);
    await expect.poll(() => rawItem(key)).toBe(original);
    await expect.poll(editorCurrency, slow).toBe(loaded);
    await expect.poll(() => row.innerText(), slow).toContain(loaded);
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('a coding agent over MCP, approved in the app: grid and open editor follow, History lists it as MCP, Undo restores the raw item', async () => {
    const p = page();
    const key = keyOf(21);
    const row = await openInEditor(key);
    const loaded = valueText(orders[21]!.currency);
    await expect.poll(editorCurrency, slow).toBe(loaded);
    const original = await rawItem(key);

    const reason = 'Bill the order in francs';
    const call = coder.client.callTool({
      name: 'propose_changes',
      arguments: {
        reason,
        changes: [
          { action: 'update', table, partitionKey: key[0], sortKey: key[1], set: { currency: 'CHF' } },
        ],
      },
    }) as Promise<CallToolResult>;
    const badge = p.getByRole('button', { name: '1 agent proposal waiting for your approval' });
    await badge.click(slow);
    const card = p
      .getByRole('dialog', { name: 'Agent proposals' })
      .getByRole('region', { name: 'Proposal from e2e-journal 1.0.0' });
    await card.getByRole('button', { name: 'Approve and write' }).click(slow);
    const result = await call;
    expect(resultJson(result).outcomes).toEqual(['written']);
    await badge.waitFor({ state: 'detached' });

    await expect.poll(editorCurrency, slow).toBe('CHF');
    await expect.poll(() => row.innerText(), slow).toContain('CHF');
    await expect.poll(() => rawItem(key)).toContain('"currency":{"S":"CHF"}');

    await undoFromHistory('MCP', `MCP client e2e-journal 1.0.0: ${reason}`);
    await expect.poll(() => rawItem(key)).toBe(original);
    await expect.poll(editorCurrency, slow).toBe(loaded);
    await expect.poll(() => row.innerText(), slow).toContain(loaded);
    expect(session.browser.pageErrors).toEqual([]);
  });
});
