import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SAMPLE_TABLE, sampleItems } from '../../resources/playground/sample-table';
import { PLAYGROUND_ID } from '../../src/main/aws/connection-store';
import { fromSdkItem } from '../../src/main/dynamo/marshal';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import type { ScriptedTurn } from '../support/fake-bedrock';
import { useFakeBedrock, vipProposalTurn } from './support/assistant';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// The assistant as a user meets it: the real browser-mode server and core, the playground on
// real Java with the seeded sample table, Debian's Chromium, and the fake Bedrock Runtime (the
// real SDK speaking the real wire protocol to 127.0.0.1). No fixed sleeps: every step waits for
// what the user would see.
const slow = { timeout: 120_000 };

const session = useAppInBrowser();
const bedrock = useFakeBedrock();

/** The item as DynamoDB holds it now, read with the app's own client for the playground. */
async function storedItem(pk: string, sk: string): Promise<Item | undefined> {
  const client = await session.app.core.clients.dynamo(PLAYGROUND_ID);
  const output = await client.send(
    new GetItemCommand({
      TableName: SAMPLE_TABLE,
      Key: { PK: { S: pk }, SK: { S: sk } },
      ConsistentRead: true,
    }),
  );
  return output.Item ? fromSdkItem(output.Item) : undefined;
}

const text = (item: Item, name: string): string | undefined => {
  const value = item[name];
  return value && 'S' in value ? value.S : undefined;
};
const numberOf = (item: Item, name: string): string | undefined => {
  const value = item[name];
  return value && 'N' in value ? value.N : undefined;
};

function seeded(pk: string, sk: string): Item | undefined {
  return sampleItems().find((item) => text(item, 'PK') === pk && text(item, 'SK') === sk);
}

/** A promise the test settles when it has seen what it wanted (the fake holds the stream till then). */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const panel = (): Locator => session.browser.page.getByRole('complementary', { name: 'Assistant' });
const lastTurn = (): Locator => panel().locator('article.agent-turn').last();
const step = (tool: string): Locator =>
  lastTurn().getByRole('button', { name: new RegExp(`^\\S?\\s*${tool}\\b`) });

async function ask(question: string, script: ScriptedTurn[]): Promise<void> {
  bedrock.fake.script = script;
  await panel().getByRole('textbox', { name: 'Question for the assistant' }).fill(question);
  await panel().getByRole('button', { name: 'Ask', exact: true }).click();
  await lastTurn().getByText(question).waitFor();
}

describe('the assistant on the playground', () => {
  it('opens beside the sample table and saves its settings from the form', async () => {
    const page = await session.openPage();
    await page.getByRole('button', { name: 'Open playground' }).click();
    await page.getByTestId('table-row').filter({ hasText: SAMPLE_TABLE }).waitFor(slow);
    await page.getByTestId('top-bar').getByRole('button', { name: 'Assistant' }).click();
    await panel().getByText('Ask about this connection’s tables').waitFor();

    await panel().getByRole('button', { name: 'Settings' }).click();
    await panel().getByLabel('Bedrock endpoint (optional)').fill(bedrock.fake.endpoint);
    await panel().getByLabel('Bedrock region').fill('eu-central-1');
    await screenshots(session.browser.page, 'agent-settings');
    await panel().getByRole('button', { name: 'Save' }).click();
    await panel().getByLabel('Bedrock endpoint (optional)').waitFor({ state: 'detached' });
    // Saved in main: the next question goes to the fake, in the region chosen here.
    const saved = await page.evaluate(async () => {
      const response = await fetch('/api/agent:getSettings', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ connectionId: 'playground' }),
      });
      return (await response.json()) as { value: { bedrockEndpoint?: string; bedrockRegion: string } };
    });
    expect(saved.value).toMatchObject({
      bedrockEndpoint: bedrock.fake.endpoint,
      bedrockRegion: 'eu-central-1',
    });
  });

  it('reads with visible steps, asks before writing, applies the approved write, and streams the answer', async () => {
    const { page } = session.browser;
    // Counted here from the seed itself, not from anything the app computed.
    const orders = sampleItems().filter(
      (i) => text(i, 'PK') === 'USER#u1' && text(i, 'SK')?.startsWith('ORDER#'),
    );
    const cents = orders.reduce((sum, o) => sum + Math.round(Number(numberOf(o, 'total')) * 100), 0);
    const spent = Number(`${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`);
    const answer = `User u1 has **${orders.length} orders**. I marked the profile as VIP.`;
    const rest = gate();
    await ask('How many orders does u1 have? Then mark u1 as VIP.', [
      { kind: 'tool', text: 'Let me find the tables first.', tools: [{ name: 'list_tables', input: {} }] },
      { kind: 'tool', tools: [{ name: 'describe_table', input: { table: SAMPLE_TABLE } }] },
      {
        kind: 'tool',
        tools: [
          {
            name: 'query',
            input: {
              table: SAMPLE_TABLE,
              partitionKey: 'USER#u1',
              sortKey: { op: 'begins_with', value: 'ORDER#' },
            },
          },
        ],
      },
      {
        kind: 'tool',
        tools: [
          {
            name: 'run_sql',
            input: {
              statement: `SELECT COUNT(*) AS orders, SUM(total) AS spent FROM ${SAMPLE_TABLE} WHERE PK = 'USER#u1' AND begins_with(SK, 'ORDER#')`,
            },
          },
        ],
      },
      vipProposalTurn,
      { kind: 'text', text: answer, chunks: 4, hold: rest.promise },
    ]);
    await lastTurn().getByText('Let me find the tables first.').waitFor();
    await step('list_tables').waitFor();
    await step('describe_table').waitFor();
    // The query really ran against the playground: its step shows the count DynamoDB returned.
    await step('query')
      .locator('.agent-step-summary', { hasText: new RegExp(`^${orders.length} items$`) })
      .waitFor();

    // run_sql went through the SQL workbench's worker to the playground: one row, the right sums.
    await step('run_sql')
      .locator('.agent-step-summary', { hasText: new RegExp(`^1 row · ${orders.length} items read$`) })
      .waitFor();
    const sqlResult = JSON.stringify(bedrock.fake.requests.at(-1)?.body.messages);
    expect(sqlResult).toContain(JSON.stringify([{ orders: orders.length, spent }]));

    const card = lastTurn().getByRole('region', { name: 'Approval needed' });
    await card.getByText('Approve these writes?').waitFor();
    // In words, derived from the exact request: which item, what changes, on what condition.
    const words = await card.locator('.agent-request').innerText();
    expect(words).toMatch(/UPDATE\s+USER#u1 · PROFILE\s+in DynoTableSample/);
    expect(words).toContain('SET vip = true');
    expect(words).toContain('only if PK exists and vip is not set');
    await card.getByRole('button', { name: 'Approve and write' }).scrollIntoViewIfNeeded();
    await screenshots(session.browser.page, 'agent-approval');
    await card.getByText('Exact request (DynamoDB JSON)').click();
    const request = await card.locator('pre').innerText();
    expect(request).toContain('"operation": "UpdateItem"');
    expect(request).toContain(`"TableName": "${SAMPLE_TABLE}"`);
    expect(request).toContain('"ConditionExpression"');
    // Nothing is written while the card waits.
    await expect.poll(async () => (await storedItem('USER#u1', 'PROFILE'))?.vip).toBeUndefined();

    await card.getByRole('button', { name: 'Approve and write' }).click();
    await card.getByRole('status').filter({ hasText: 'Approved: 1 of 1 written.' }).waitFor();

    // The first words are on screen while the model is still "typing"; the rest follows.
    const firstChunk = answer.slice(0, Math.ceil(answer.length / 4));
    await lastTurn()
      .locator('.markdown')
      .filter({ hasText: firstChunk.replace(/\*/g, '') })
      .waitFor();
    await expect.poll(() => lastTurn().innerText()).not.toContain('marked the profile as VIP');
    await panel().getByRole('button', { name: 'Stop' }).waitFor();
    rest.open();
    await lastTurn().getByText('I marked the profile as VIP.').waitFor();
    await panel().getByRole('button', { name: 'Ask', exact: true }).waitFor();
    await expect
      .poll(() => lastTurn().locator('.markdown strong').innerText())
      .toBe(`${orders.length} orders`);

    await expect.poll(async () => (await storedItem('USER#u1', 'PROFILE'))?.vip).toEqual({ BOOL: true });

    await panel().getByRole('group', { name: 'Budget used by this question' }).waitFor();
    await lastTurn().locator('.markdown').last().scrollIntoViewIfNeeded();
    await screenshots(session.browser.page, 'agent-conversation');
    await step('query').click();
    await lastTurn().getByText('"begins_with"').waitFor();
    await step('query').scrollIntoViewIfNeeded();
    await screenshots(session.browser.page, 'agent-step-expanded');

    // One click opens what a step read in the items grid, straight from main's result set.
    await lastTurn()
      .getByRole('button', { name: `Open ${orders.length} items in the grid` })
      .click();
    const dialog = page.getByRole('dialog', { name: /^query · DynoTableSample/ });
    const grid = dialog.getByRole('grid');
    await grid.getByRole('gridcell', { name: 'ORDER#o1', exact: true }).waitFor();
    // The ARIA grid counts its column header row as row 1.
    await expect.poll(() => grid.getAttribute('aria-rowcount')).toBe(String(orders.length + 1));
    await expect.poll(() => grid.getByRole('row').count()).toBe(orders.length + 1);
    await screenshots(session.browser.page, 'agent-result-grid');
    await dialog.getByRole('button', { name: 'Close the dialog' }).click();
    await dialog.waitFor({ state: 'detached' });
    await lastTurn().getByRole('button', { name: 'Open 1 item in the grid' }).click();
    const sqlGrid = page.getByRole('dialog', { name: /^run_sql/ }).getByRole('grid');
    await sqlGrid.getByRole('columnheader', { name: 'spent' }).waitFor();
    await sqlGrid.getByRole('gridcell', { name: String(spent), exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await sqlGrid.waitFor({ state: 'detached' });
  });

  it('writes nothing when the user rejects', async () => {
    const before = await storedItem('USER#u2', 'PROFILE');
    expect(before).toEqual(seeded('USER#u2', 'PROFILE'));
    await ask('Delete the profile of u2.', [
      {
        kind: 'tool',
        tools: [
          {
            name: 'propose_changes',
            input: {
              reason: 'Delete the profile of u2',
              changes: [
                { action: 'delete', table: SAMPLE_TABLE, partitionKey: 'USER#u2', sortKey: 'PROFILE' },
              ],
            },
          },
        ],
      },
      { kind: 'text', text: 'Understood: the profile of u2 stays as it is.' },
    ]);
    const card = lastTurn().getByRole('region', { name: 'Approval needed' });
    const words = await card.locator('.agent-request').innerText();
    expect(words).toMatch(/DELETE\s+USER#u2 · PROFILE\s+in DynoTableSample/);
    expect(words).toMatch(/only if the item is unchanged since it was read \(\d+ attributes compared\)/);
    await card.getByRole('button', { name: 'Reject' }).click();
    await card.getByRole('status').filter({ hasText: 'Rejected: nothing was written.' }).waitFor();
    await lastTurn().getByText('Understood: the profile of u2 stays as it is.').waitFor();
    await expect.poll(() => storedItem('USER#u2', 'PROFILE')).toEqual(before);
    // The model was told, in the same conversation, that the user said no.
    const lastSent = JSON.stringify(bedrock.fake.requests.at(-1)?.body.messages);
    expect(lastSent).toContain('The user rejected these changes');
  });

  it('stops a streaming answer with Stop', async () => {
    await ask('Count every item in every table, slowly.', [{ kind: 'hang', text: 'Counting the items' }]);
    await lastTurn().getByText('Counting the items').waitFor();
    await panel().getByRole('button', { name: 'Stop' }).click();
    await lastTurn()
      .getByText(/^Stopped\./)
      .waitFor();
    await panel().getByRole('button', { name: 'Ask', exact: true }).waitFor();
  });

  it('explains missing model access with the fix', async () => {
    await ask('Hello?', [
      {
        kind: 'http-error',
        status: 403,
        type: 'AccessDeniedException',
        message: 'You don’t have access to the model with the specified model ID.',
      },
    ]);
    const alert = lastTurn().getByRole('alert');
    await alert.waitFor();
    const text = await alert.innerText();
    expect(text).toContain('AccessDeniedException');
    expect(text).toMatch(
      /enable access to this model in the Bedrock console \(Model access\) for eu-central-1/,
    );
    // The way to the fix is one click away.
    await lastTurn().getByRole('button', { name: 'Open Model access' }).waitFor();
    await lastTurn().getByRole('button', { name: 'Assistant settings' }).waitFor();
    await screenshots(session.browser.page, 'agent-error');
  });

  it('raised no uncaught errors in the page', () => {
    expect(session.browser.pageErrors).toEqual([]);
  });
});
