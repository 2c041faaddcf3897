import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { loadAthenaSettings } from '../../src/main/sql/sql-settings';
import type { AthenaPlan, AthenaSavedSettings } from '../../src/shared/ipc/athena';
import type { SqlResultSummary } from '../../src/shared/ipc/sql';
import { GB, ok, useBigShop } from '../support/athena/big-shop';
import { SHOP_ITEMS } from '../support/athena/shop';
import { ourLines, runCli } from '../support/cli-run';
import { mcpStdioTransport } from '../support/mcp-stdio';

/**
 * The scan limit held in main (issue 17): a statement whose local plan would Scan a table
 * DescribeTable reports as 200 GB (30 items in DynamoDB Local behind the "AWS" endpoint) reads
 * nothing through sql:run, the CLI or the MCP server unless the caller chose the local scan;
 * the limit the user sets is kept in the data folder and holds for the next statement.
 */
const shop = useBigShop({ prefixes: ['scanlimit'] });

const wholeTable = () => `SELECT PK, SK, status FROM "${shop.table}" WHERE status = 'DELIVERED'`;
const scans = (calls: string[]) => calls.filter((c) => c === 'DynamoDB_20120810.Scan').length;

async function runSql(requestId: string, sql: string, local?: boolean) {
  const done = shop.app.waitFor(requestId);
  ok(
    await shop.app.call('sql:run', {
      connectionId: shop.app.connectionId,
      sql,
      requestId,
      ...(local === undefined ? {} : { local }),
    }),
  );
  return (await done).last;
}

describe('sql:run past the scan limit', () => {
  it('reads nothing and says why in a sentence, unless the local scan was chosen', async () => {
    // The catalog (DescribeTable, its small key sample) loads with the plan, as in the workbench.
    const plan = ok(
      await shop.app.call<AthenaPlan>('athena:plan', {
        connectionId: shop.app.connectionId,
        sql: wholeTable(),
      }),
    );
    expect(plan.over.join(' ')).toMatch(/200 GB is more than the limit/);
    const before = scans(shop.aws.calls);
    const refused = await runSql('sql-limit-0001', wholeTable());
    if (refused.type !== 'error') throw new Error(`expected an error, got ${refused.type}`);
    expect(refused.error.code).toBe('ScanLimitExceeded');
    expect(refused.error.message).toMatch(
      new RegExp(
        `would scan ${shop.table} whole and nothing was read: 200 GB is more than the limit of [\\d.]+ GB\\.`,
      ),
    );
    expect(scans(shop.aws.calls)).toBe(before);

    // A key condition reads one partition: within the limit whatever the table's size.
    const keyed = await runSql('sql-limit-0002', `SELECT SK FROM "${shop.table}" WHERE PK = 'SKU#A-1'`);
    expect(keyed.type).toBe('done');

    const chosen = await runSql('sql-limit-0003', wholeTable(), true);
    if (chosen.type !== 'done') throw new Error(JSON.stringify(chosen));
    const delivered = SHOP_ITEMS.filter((i) => i.status && 'S' in i.status && i.status.S === 'DELIVERED');
    expect((chosen.value as SqlResultSummary).total).toBe(delivered.length);
    expect(scans(shop.aws.calls)).toBeGreaterThan(before);
    ok(await shop.app.call('sql:clearCache', { connectionId: shop.app.connectionId }));
  });

  it('holds the next statement to the limit the user saved, kept in the data folder', async () => {
    const initial = ok(
      await shop.app.call<AthenaSavedSettings>('athena:settings', { connectionId: shop.app.connectionId }),
    );
    expect(initial.isDefault).toBe(true);
    expect(initial.limits).toEqual({ bytes: Math.floor(os.totalmem() / 4) });

    const raised = ok(
      await shop.app.call<AthenaSavedSettings>('athena:saveSettings', {
        connectionId: shop.app.connectionId,
        limits: { bytes: 300 * GB },
      }),
    );
    expect(raised).toMatchObject({ isDefault: false, limits: { bytes: 300 * GB } });
    // Read back from the file as a restarted app reads it.
    expect((await loadAthenaSettings(shop.app.dataDir, shop.app.connectionId)).limits).toEqual({
      bytes: 300 * GB,
    });
    const plan = ok(
      await shop.app.call<AthenaPlan>('athena:plan', {
        connectionId: shop.app.connectionId,
        sql: wholeTable(),
      }),
    );
    expect(plan.over).toEqual([]);
    expect((await runSql('sql-limit-0004', wholeTable())).type).toBe('done');
    ok(await shop.app.call('sql:clearCache', { connectionId: shop.app.connectionId }));

    ok(
      await shop.app.call('athena:saveSettings', {
        connectionId: shop.app.connectionId,
        limits: { items: 1_000_000, rcu: 5_000 },
      }),
    );
    const refused = await runSql('sql-limit-0005', wholeTable());
    if (refused.type !== 'error') throw new Error(`expected an error, got ${refused.type}`);
    expect(refused.error.message).toMatch(
      /400,000,000 items is more than the limit of 1,000,000; 24,414,063 RCU is more than the limit of 5,000/,
    );

    const back = ok(
      await shop.app.call<AthenaSavedSettings>('athena:saveSettings', {
        connectionId: shop.app.connectionId,
        limits: null,
      }),
    );
    expect(back.isDefault).toBe(true);
    expect((await loadAthenaSettings(shop.app.dataDir, shop.app.connectionId)).isDefault).toBe(true);
  });
});

describe('the CLI and the MCP server past the scan limit', () => {
  const endpointArgs = () => ['--endpoint', shop.aws.endpoint, '--region', 'us-east-1'];

  it('dynotable sql exits 2 with the sentence, and --local scans', async () => {
    const before = scans(shop.aws.calls);
    const refused = await runCli(['sql', wholeTable(), ...endpointArgs()], { AWS_REGION: undefined });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    const lines = ourLines(refused.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/200 GB is more than the limit .*\(ScanLimitExceeded\)$/);
    expect(scans(shop.aws.calls)).toBe(before);

    const local = await runCli(['sql', wholeTable(), ...endpointArgs(), '--local'], {
      AWS_REGION: undefined,
    });
    expect(local.code).toBe(0);
    const delivered = SHOP_ITEMS.filter((i) => i.status && 'S' in i.status && i.status.S === 'DELIVERED');
    expect((JSON.parse(local.stdout) as unknown[]).length).toBe(delivered.length);
  });

  it("the MCP server's run_sql is refused even within its read budget", async () => {
    const transport = mcpStdioTransport(
      [
        ...endpointArgs(),
        '--max-items',
        '1000000000',
        '--max-rcu',
        '1000000000',
        // Scans allowed, so what refuses the statement is the scan limit, not the Scan rule.
        '--allow-scans',
      ],
      mkdtempSync(path.join(os.tmpdir(), 'dynotable-mcp-limit-')),
    );
    const client = new Client({ name: 'test-agent', version: '1.0.0' }, { capabilities: {} });
    await client.connect(transport);
    try {
      const before = scans(shop.aws.calls);
      const result = (await client.callTool({
        name: 'run_sql',
        arguments: { statement: wholeTable() },
      })) as CallToolResult;
      const first = result.content[0];
      const text = first?.type === 'text' ? first.text : '';
      expect(result.isError).toBe(true);
      expect(text).toMatch(/would scan .* whole and nothing was read: 200 GB is more than the limit/);
      expect(scans(shop.aws.calls)).toBe(before);
    } finally {
      await client.close();
    }
  }, 60_000);
});
