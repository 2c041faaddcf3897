import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_TABLE } from '../../resources/playground/sample-table';
import { localConnection } from '../support/browser-core';
import { mcpStdioTransport } from '../support/mcp-stdio';
import { canonical, rawGetItem } from '../support/raw-dynamo';
import { approveThenUndo } from './support/mcp-proposals';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// A write proposed by a coding agent over stdio (`npx dynotable mcp`, a process of its own that
// shares the data folder) approved in the browser-mode app, as a user meets it: the official
// MCP SDK client without elicitation drives the real CLI; the proposal appears in Chromium like
// an HTTP one, the app writes it, History lists it under the client's name and its undo puts
// back exactly what DynamoDB Local held (its raw wire JSON).
const slow = { timeout: 60_000 };
const session = useAppInBrowser({ withPlayground: true });
const KEY = { PK: { S: 'USER#u9' }, SK: { S: 'PROFILE' } };
const LABEL = 'Local for agents';
let client: Client;

const stored = () => rawGetItem(session.playgroundEndpoint, SAMPLE_TABLE, KEY);

beforeAll(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  // A connection saved in DynoTable, which `dynotable mcp --connection` finds in the same data folder.
  const saved = await session.app.core.connections.save({
    ...localConnection(session.playgroundEndpoint),
    label: LABEL,
  });
  client = new Client({ name: 'stdio-coder', version: '0.9.1' });
  await client.connect(
    mcpStdioTransport(
      ['--connection', saved.id, '--allow-writes', '--tables', SAMPLE_TABLE],
      session.app.dataDir,
    ),
  );
}, 120_000);

afterAll(async () => {
  await client.close();
});

describe('agent proposals (MCP over stdio)', () => {
  it('shows a stdio proposal in the app, writes it on approval, and History undoes it to the raw item', async () => {
    const before = await stored();
    expect(before).not.toBeNull();
    const p = await session.openPage();
    const card = p.getByTestId('connection-card').filter({ hasText: LABEL });
    await card.getByRole('button', { name: 'Open', exact: true }).click();
    await p.getByRole('button', { name: SAMPLE_TABLE, exact: true }).click(slow);

    const call = client.callTool(
      {
        name: 'propose_changes',
        arguments: {
          reason: 'Tag a tester',
          changes: [
            {
              action: 'update',
              table: SAMPLE_TABLE,
              partitionKey: 'USER#u9',
              sortKey: 'PROFILE',
              set: { tier: 'beta-tester', agentNote: 'proposed over stdio' },
            },
          ],
        },
      },
      undefined,
      { timeout: 120_000 },
    ) as Promise<CallToolResult>;
    const badge = p.getByRole('button', { name: '1 agent proposal waiting for your approval' });
    await badge.click(slow);
    const dialog = p.getByRole('dialog', { name: 'Agent proposals' });
    const proposal = dialog.getByRole('region', { name: 'Proposal from stdio-coder 0.9.1' });
    await proposal.getByText('Tag a tester (1 write)').waitFor(slow);
    const diff = proposal.getByRole('list', { name: 'Changes to USER#u9 · PROFILE' });
    await expect.poll(() => diff.innerText(), slow).toContain('beta-tester');
    await expect.poll(() => proposal.innerText()).toContain(LABEL);
    // Nothing is written while the proposal waits.
    await expect.poll(async () => canonical(await stored())).toBe(canonical(before));
    await screenshots(p, 'mcp-stdio-proposal', dialog);

    // Written by the app itself, journaled under the client's name, and undone from History.
    await approveThenUndo(p, {
      proposal,
      call,
      badge,
      table: SAMPLE_TABLE,
      reason: 'MCP client stdio-coder 0.9.1: Tag a tester',
      before,
      stored,
      written: (item) => {
        expect(item?.tier).toEqual({ S: 'beta-tester' });
        expect(item?.agentNote).toEqual({ S: 'proposed over stdio' });
      },
      screenshot: 'mcp-stdio-proposal-history',
    });
    expect(session.browser.pageErrors).toEqual([]);
  });
});
