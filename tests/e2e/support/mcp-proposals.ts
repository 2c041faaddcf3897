import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { resultJson } from '../../support/mcp-result';
import { canonical } from '../../support/raw-dynamo';
import { screenshots } from './screenshots';

const slow = { timeout: 60_000 };

/**
 * The end of an agent-proposal walk, whichever transport proposed it: Approve in the dialog,
 * the agent told it was written, the badge gone, then the table's Undo history lists it under
 * `reason` (which names the MCP client) and its Undo puts back exactly what DynamoDB Local held (`stored` reads the raw
 * wire JSON). `written` checks the item the approval left.
 */
export async function approveThenUndo(
  page: Page,
  options: {
    proposal: Locator;
    call: Promise<CallToolResult>;
    badge: Locator;
    table: string;
    reason: string;
    before: unknown;
    stored: () => Promise<Record<string, unknown> | null>;
    written: (item: Record<string, unknown> | null) => void;
    screenshot: string;
  },
): Promise<void> {
  await options.proposal.getByRole('button', { name: 'Approve and write' }).click();
  const result = await options.call;
  expect(result.isError).not.toBe(true);
  expect(resultJson(result).outcomes).toEqual(['written']);
  await options.badge.waitFor({ state: 'detached' });
  options.written(await options.stored());

  await page.getByRole('button', { name: 'Undo history…' }).click();
  const history = page.getByRole('dialog', { name: `Undo history — ${options.table}` });
  const entry = history.getByRole('list', { name: 'Recent writes' }).getByRole('listitem').first();
  await expect.poll(() => entry.locator('strong').innerText(), slow).toBe(options.reason);
  await screenshots(page, options.screenshot, history);
  await entry.getByRole('button', { name: /^Undo "/ }).click();
  await expect.poll(async () => canonical(await options.stored()), slow).toBe(canonical(options.before));
}
