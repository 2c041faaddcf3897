import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SAMPLE_TABLE } from '../../resources/playground/sample-table';
import { resultJson } from '../support/mcp-result';
import { canonical, rawGetItem } from '../support/raw-dynamo';
import { seriousAxeViolations } from './support/axe';
import { useMcpHttpClient } from './support/mcp-client';
import { approveThenUndo } from './support/mcp-proposals';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// A coding agent's write approved in DynoTable, as a user meets it: the official MCP SDK client
// (no elicitation, like most clients) proposes over the app's HTTP transport, the proposal waits
// in Chromium wherever the user is, the approved write is in History under the client's name and
// its undo puts back exactly what DynamoDB Local held (its raw wire JSON); a rejection writes
// nothing and the agent is told in a sentence.
const slow = { timeout: 60_000 };
const session = useAppInBrowser({ withPlayground: true });
const page = () => session.browser.page;
const KEY = { PK: { S: 'USER#u7' }, SK: { S: 'PROFILE' } };
const coder = useMcpHttpClient(session, 'e2e-coder', '3.1.4');

const stored = () => rawGetItem(session.playgroundEndpoint, SAMPLE_TABLE, KEY);

function propose(reason: string): Promise<CallToolResult> {
  return coder.client.callTool({
    name: 'propose_changes',
    arguments: {
      reason,
      changes: [
        {
          action: 'update',
          table: SAMPLE_TABLE,
          partitionKey: 'USER#u7',
          sortKey: 'PROFILE',
          set: { loyaltyPoints: 424242, agentNote: 'VIP after review' },
        },
      ],
    },
  }) as Promise<CallToolResult>;
}

const proposals = (): Locator => page().getByRole('dialog', { name: 'Agent proposals' });

describe('agent proposals (MCP over HTTP)', () => {
  it('shows a proposed write with its diff, writes it on approval, and History undoes it to the raw item', async () => {
    const before = await stored();
    expect(before).not.toBeNull();
    const p = await session.openPage();
    await p.getByRole('button', { name: 'Open playground' }).click();
    await p.getByRole('button', { name: SAMPLE_TABLE, exact: true }).click(slow);

    const call = propose('Make Ada a VIP');
    const badge = p.getByRole('button', { name: '1 agent proposal waiting for your approval' });
    await badge.click(slow);
    const card = proposals().getByRole('region', { name: 'Proposal from e2e-coder 3.1.4' });
    await card.getByText('Make Ada a VIP (1 write)').waitFor(slow);
    const diff = card.getByRole('list', { name: 'Changes to USER#u7 · PROFILE' });
    await expect.poll(() => diff.innerText(), slow).toContain('424242');
    await expect.poll(() => diff.innerText()).toContain('agentNote');
    // Nothing is written while the proposal waits.
    await expect.poll(async () => canonical(await stored())).toBe(canonical(before));
    await screenshots(p, 'mcp-proposal', proposals());
    expect(await seriousAxeViolations(p, { include: 'dialog[open]' })).toEqual([]);

    await approveThenUndo(p, {
      proposal: card,
      call,
      badge,
      table: SAMPLE_TABLE,
      reason: 'MCP client e2e-coder 3.1.4: Make Ada a VIP',
      before,
      stored,
      written: (item) => {
        expect(item?.loyaltyPoints).toEqual({ N: '424242' });
        expect(item?.agentNote).toEqual({ S: 'VIP after review' });
      },
      screenshot: 'mcp-proposal-history',
    });
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('rejected from the keyboard, leaves the item as it was and tells the agent in a sentence', async () => {
    const before = await stored();
    const call = propose('Make Ada a VIP again');
    const badge = page().getByRole('button', { name: '1 agent proposal waiting for your approval' });
    await badge.waitFor(slow);
    await page().keyboard.press('Control+Shift+P');
    const card = proposals().getByRole('region', { name: 'Proposal from e2e-coder 3.1.4' });
    await card.getByRole('button', { name: 'Reject' }).focus();
    await page().keyboard.press('Enter');
    const result = await call;
    expect(result.isError).toBe(true);
    expect(resultJson(result).error).toBe(
      'The user rejected these changes in DynoTable. Nothing was written.',
    );
    await badge.waitFor({ state: 'detached' });
    await expect.poll(async () => canonical(await stored())).toBe(canonical(before));
  });
});
