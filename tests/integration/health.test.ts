import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLOUDWATCH_ENDPOINT_ENV } from '../../src/main/health/cloudwatch';
import { lastHealthReport } from '../../src/main/health/report-store';
import { appendHistory } from '../../src/main/sql/files/query-files';
import { healthHandlers } from '../../src/main/ipc/handlers/health';
import { migrationHandlers } from '../../src/main/ipc/handlers/migration';
import type { SecretStore } from '../../src/main/core/context';
import type { HealthReport } from '../../src/shared/ipc/health';
import type { FixPlanSummary, FixResult } from '../../src/shared/ipc/migration';
import { runCli } from '../support/cli-run';
import { uniqueTableName } from '../support/dynamo-local';
import { createTable } from '../support/dynamo-tables';
import { type FakeCloudWatch, startFakeCloudWatch } from '../support/fake-cloudwatch';
import { itemsHarness, localKeys, type ItemsHarness } from '../support/items-context';
import { rawDynamo, rawScanItems } from '../support/raw-dynamo';

const endpoint = inject('dynamoEndpoint');
const table = uniqueTableName('health');
const NOW = Math.floor(Date.now() / 1000);
const BIG = 'x'.repeat(370 * 1024);
let h: ItemsHarness;
let cw: FakeCloudWatch;

/** A hot key, near-400 KB items, TTL in seconds (past and future), in ms, as strings, and missing. */
function items(): Record<string, SdkValue>[] {
  const out: Record<string, SdkValue>[] = [];
  for (let i = 0; i < 30; i++)
    out.push({
      pk: { S: 'TENANT#hot' },
      sk: { S: `ORDER#${String(i).padStart(3, '0')}` },
      status: { S: 'open' },
      // What an ALL projection copies into byStatus and its readers never ask for.
      detail: { S: 'd'.repeat(1500) },
      ...(i % 3 === 0 ? { expiresAt: { N: String(NOW + 86_400) } } : {}),
      ...(i % 3 === 1 ? { expiresAt: { N: String((NOW + 86_400) * 1000) } } : {}),
      // A dotted name: the TTL fix must leave it where it is (the pre-flight's fix would move it).
      'note.text': { S: `n${i}` },
    });
  for (let i = 0; i < 20; i++)
    out.push({
      pk: { S: `TENANT#t${i}` },
      sk: { S: 'PROFILE' },
      ...(i < 4
        ? { expiresAt: { S: String(NOW + 3600) } }
        : { expiresAt: { N: String(NOW - 3600 * (i + 1)) } }),
      // `__proto__` as an own name (JSON.parse keeps it): attribute names are data.
      nested: JSON.parse(
        '{"M":{"__proto__":{"S":"kept"},"list":{"L":[{"N":"1.50"},{"BOOL":true}]}}}',
      ) as SdkValue,
    });
  for (let i = 0; i < 3; i++)
    out.push({
      pk: { S: `BIG#${i}` },
      sk: { S: 'BLOB' },
      blob: { S: BIG },
      expiresAt: { N: String(NOW * 1000) },
    });
  return out;
}

/** DynamoDB's size rules for the S, N, M, L and BOOL values these items hold: an oracle apart from the app's. */
function wireSize(value: unknown): number {
  const v = value as Record<string, unknown>;
  if ('S' in v) return Buffer.byteLength(v.S as string);
  if ('N' in v) return Math.ceil((v.N as string).replace(/^-|\.|^0+|0+$/g, '').length / 2) + 1;
  if ('BOOL' in v) return 1;
  if ('L' in v) return 3 + (v.L as unknown[]).reduce<number>((s, m) => s + 1 + wireSize(m), 0);
  const map = v.M as Record<string, unknown>;
  return 3 + Object.keys(map).reduce((s, k) => s + 1 + Buffer.byteLength(k) + wireSize(map[k]), 0);
}
const itemBytes = (item: Record<string, unknown>) =>
  Object.keys(item).reduce((s, k) => s + Buffer.byteLength(k) + wireSize(item[k]), 0);

let seq = 0;
const rid = () => `req_health_${seq++}_${Date.now()}`;

async function operation<T>(channel: string, payload: Record<string, unknown>): Promise<T> {
  const requestId = rid();
  const done = h.waitFor(requestId);
  const started = await h.call(channel, { ...payload, requestId });
  if (!started.ok) throw new Error(started.error.message);
  const { last } = await done;
  if (last.type !== 'done') throw new Error(`${channel} ended ${last.type}: ${JSON.stringify(last)}`);
  return last.value as T;
}

async function check(mode: 'sample' | 'full' = 'full'): Promise<HealthReport> {
  const { reportId } = await operation<{ reportId: string }>('health:analyze', {
    connectionId: 'local',
    table,
    mode,
    window: '24h',
  });
  const report = await h.call<HealthReport>('health:report', { reportId });
  if (!report.ok) throw new Error(report.error.message);
  return report.value;
}

beforeAll(async () => {
  h = itemsHarness(endpoint, { ...healthHandlers, ...migrationHandlers });
  (h.ctx as { secrets: SecretStore }).secrets = localKeys;
  cw = await startFakeCloudWatch();
  process.env[CLOUDWATCH_ENDPOINT_ENV] = cw.endpoint;
  // Every 15 minutes: the table read 10 and written 5 units, its index written 4 and never read.
  cw.metricValue = ({ metric, index }) =>
    metric === 'ConsumedWriteCapacityUnits'
      ? index
        ? 4
        : 5
      : metric === 'ConsumedReadCapacityUnits'
        ? index
          ? 0
          : 10
        : 0;
  await createTable(h.client, table, {
    partitionKey: ['pk', 'S'],
    sortKey: ['sk', 'S'],
    globalIndexes: [{ name: 'byStatus', partitionKey: ['status', 'S'] }],
  });
  await rawDynamo(endpoint, 'UpdateTimeToLive', {
    TableName: table,
    TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
  });
  // Past the SDK, so `__proto__` reaches DynamoDB Local as written.
  for (const Item of items()) await rawDynamo(endpoint, 'PutItem', { TableName: table, Item });
});
afterAll(async () => {
  Reflect.deleteProperty(process.env, CLOUDWATCH_ENDPOINT_ENV);
  await h.close();
  await cw.close();
});

describe('table health against DynamoDB Local and a local CloudWatch', () => {
  it('counts keys, sizes and TTL values as a raw Scan tallies them', async () => {
    const raw = await rawScanItems(endpoint, table);
    const report = await check('full');
    expect(report.draw.itemsRead).toBe(raw.length);

    // Keys: the oracle counts partition key values in the wire JSON.
    const perKey = new Map<string, number>();
    for (const item of raw) {
      const pk = (item.pk as { S: string }).S;
      perKey.set(pk, (perKey.get(pk) ?? 0) + 1);
    }
    expect(report.keys.distinctPartitionKeys).toBe(perKey.size);
    expect(report.keys.top[0]).toMatchObject({ key: 'TENANT#hot', items: perKey.get('TENANT#hot') });
    const hot = report.findings.find((f) => f.id === 'keys.hot');
    expect(hot?.evidence).toContain('TENANT#hot');
    expect(hot?.action).toEqual({ kind: 'open-items', keys: [{ pk: { S: 'TENANT#hot' } }] });

    // Sizes: the items within 12.5% of 400 KB, by an independent size count.
    const near = raw.filter((i) => itemBytes(i) >= 400 * 1024 * 0.875);
    expect(report.sizes.nearLimitCount).toBe(near.length);
    expect(report.sizes.nearLimit.map((b) => (b.key.pk as { S: string }).S).sort()).toEqual(
      near.map((i) => (i.pk as { S: string }).S).sort(),
    );
    expect(report.sizes.nearLimit[0]?.largest[0]?.attribute).toBe('blob');
    expect(Math.max(...report.sizes.entities.map((e) => e.max))).toBe(Math.max(...raw.map(itemBytes)));
    expect(report.sizes.histogram.reduce((s, b) => s + b.items, 0)).toBe(raw.length);
    expect(report.findings.find((f) => f.id === 'sizes.near-limit')?.action).toMatchObject({
      kind: 'open-items',
    });

    // TTL: only N epoch seconds expire an item.
    const ttl = { seconds: 0, milliseconds: 0, string: 0, otherType: 0, missing: 0, expired: 0 };
    for (const item of raw) {
      const v = item.expiresAt as { N?: string; S?: string } | undefined;
      if (!v) ttl.missing += 1;
      else if (v.S !== undefined) ttl.string += 1;
      else if (v.N !== undefined && v.N.length >= 13) ttl.milliseconds += 1;
      else if (v.N !== undefined) {
        ttl.seconds += 1;
        if (Number(v.N) < NOW) ttl.expired += 1;
      } else ttl.otherType += 1;
    }
    const { expired, ...counts } = ttl;
    expect(report.ttl.counts).toEqual(counts);
    expect(report.ttl.expiredPresent).toBe(expired);
    // The expired items still present open by their keys, as the raw Scan finds them.
    const expiredKeys = raw
      .filter((i) => Number((i.expiresAt as { N?: string } | undefined)?.N ?? NaN) < NOW)
      .map((i) => `${(i.pk as { S: string }).S}|${(i.sk as { S: string }).S}`);
    const openExpired = report.findings.find((f) => f.id === 'ttl.expired-present')?.action;
    expect(openExpired?.kind).toBe('open-items');
    expect(
      openExpired?.kind === 'open-items' &&
        openExpired.keys.map((k) => `${(k.pk as { S: string }).S}|${(k.sk as { S: string }).S}`).sort(),
    ).toEqual(expiredKeys.sort());
    expect(report.findings.find((f) => f.id === 'ttl.milliseconds')?.action).toEqual({
      kind: 'stage-ttl-fix',
      attribute: 'expiresAt',
    });
    expect(report.findings.find((f) => f.id === 'ttl.wrong-type')?.title).toContain(`${ttl.string} items`);
  });

  it('reads capacity per table and index through the real CloudWatch client, and names the unread index', async () => {
    cw.insights.set(table, {
      status: 'ENABLED',
      rules: [`DynamoDBContributorInsights-PKC-${table}-1`, `DynamoDBContributorInsights-PKT-${table}-1`],
    });
    cw.contributors.set(`DynamoDBContributorInsights-PKC-${table}-1`, [{ keys: ['TENANT#hot'], value: 900 }]);
    cw.requests.length = 0;
    const report = await check('sample');
    expect(report.cloudWatch.state).toBe('ok');
    const metricCall = cw.requests.find((r) => r.target.endsWith('.GetMetricData'));
    // 24 hours in 15-minute periods: 96 points per series, each summed.
    const reads = report.capacity.find(
      (s) => s.resource === table && s.metric === 'ConsumedReadCapacityUnits',
    );
    expect(reads?.points).toHaveLength(96);
    expect(reads?.total).toBe(960);
    expect(metricCall?.body.MetricDataQueries).toHaveLength(8);
    expect(report.indexes).toEqual([
      expect.objectContaining({ name: 'byStatus', kind: 'GSI', reads: 0, writes: 4 * 96 }),
    ]);
    const unread = report.findings.find((f) => f.id === 'indexes.unread.byStatus');
    expect(unread?.evidence).toContain('ConsumedReadCapacityUnits = 0');
    expect(unread?.monthlySavings).toBeGreaterThan(0);
    expect(unread?.action).toMatchObject({ kind: 'show-change' });
    expect(report.insights.mostAccessed).toEqual([{ key: 'TENANT#hot', count: 900 }]);
    expect(report.cost.onDemandMonthly).toBeGreaterThan(0);
    expect(report.cost.provisionedMonthly).toBeGreaterThan(0);
  });

  it('offers Contributor Insights when it is off, and turns it on through UpdateContributorInsights', async () => {
    cw.insights.delete(table);
    const report = await check('sample');
    expect(report.findings.find((f) => f.id === 'keys.insights-off')?.action).toMatchObject({
      kind: 'enable-insights',
    });
    const enabled = await h.call<{ status: string }>('health:enableInsights', {
      connectionId: 'local',
      table,
    });
    expect(enabled).toEqual({ ok: true, value: { status: 'ENABLING' } });
    expect(cw.insights.get(table)?.status).toBe('ENABLED');
    const refused = await h.call('health:enableInsights', { connectionId: 'ro', table });
    expect(refused).toMatchObject({ ok: false, error: { code: 'ReadOnlyConnection' } });
  });

  it('says plainly when CloudWatch is unreachable, and the item analysis still stands', async () => {
    cw.failWith = {
      status: 403,
      code: 'AccessDenied',
      message: 'not authorized to perform cloudwatch:GetMetricData',
    };
    const denied = await check('full');
    cw.failWith = undefined;
    expect(denied.cloudWatch.state).toBe('unreachable');
    expect(denied.cloudWatch.message).toContain('AccessDenied');
    expect(denied.ttl.counts.milliseconds).toBe(13);

    Reflect.deleteProperty(process.env, CLOUDWATCH_ENDPOINT_ENV);
    const local = await check('full');
    process.env[CLOUDWATCH_ENDPOINT_ENV] = cw.endpoint;
    expect(local.cloudWatch).toMatchObject({ state: 'unreachable' });
    expect(local.cloudWatch.message).toContain('DynamoDB Local has no CloudWatch');
    expect(local.sizes.nearLimitCount).toBe(3);
  });

  it('dynotable health prints the same findings and fails a pipeline at the chosen severity', async () => {
    const env = { AWS_REGION: 'us-east-1', [CLOUDWATCH_ENDPOINT_ENV]: cw.endpoint };
    const json = await runCli(['health', '--table', table, '--endpoint', endpoint, '--full', '--quiet'], env);
    expect(json.stderr).toBe('');
    // A TTL in milliseconds is critical: the default --fail-on critical fails.
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as HealthReport;
    expect(report.ttl.counts.milliseconds).toBe(13);
    expect(report.cloudWatch.state).toBe('ok');
    expect(report.findings.map((f) => f.id)).toContain('indexes.unread.byStatus');
    const md = await runCli(
      [
        'health',
        '--table',
        table,
        '--endpoint',
        endpoint,
        '--format',
        'md',
        '--quiet',
        '--fail-on',
        'critical',
      ],
      { AWS_REGION: 'us-east-1', [CLOUDWATCH_ENDPOINT_ENV]: undefined },
    );
    expect(md.code).toBe(1);
    expect(md.stdout).toContain(`# Health of ${table}`);
    expect(md.stdout).toContain('DynamoDB Local has no CloudWatch');
    const bad = await runCli(
      ['health', '--table', table, '--endpoint', endpoint, '--fail-on', 'sometimes'],
      env,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--fail-on wants info, warning, critical');
  });

  it('proposes the projection the recorded SQL reads use, measured against a raw Scan', async () => {
    // What the SQL workbench records: one statement reading byStatus's key and a dotted name.
    await appendHistory(h.ctx.dataDir, 'local', `SELECT "note.text" FROM "${table}" WHERE status = 'open'`);
    await appendHistory(h.ctx.dataDir, 'local', `SELECT * FROM "${table}" WHERE pk = 'TENANT#t1'`);
    const metric = cw.metricValue;
    cw.metricValue = (q) => (q.index && q.metric === 'ConsumedReadCapacityUnits' ? 3 : metric(q));
    const report = await check('full');
    cw.metricValue = metric;
    const f = report.findings.find((x) => x.id === 'indexes.projection.byStatus');
    expect(f?.title).toBe('Index byStatus projects more than its recorded reads use: INCLUDE would do');
    expect(f?.evidence).toContain(
      "1 SELECT in this connection's SQL history (2 statements) and saved queries (0) filter on status",
    );
    // The oracle: the items with `status` in the wire JSON, whole and as INCLUDE ["note.text"] keeps them.
    const inIndex = (await rawScanItems(endpoint, table)).filter((i) => 'status' in i);
    const kept = (i: Record<string, unknown>) =>
      itemBytes(Object.fromEntries(['pk', 'sk', 'status', 'note.text'].map((k) => [k, i[k]])));
    const now = Math.round(inIndex.reduce((s, i) => s + itemBytes(i), 0) / inIndex.length);
    const then = Math.round(inIndex.reduce((s, i) => s + kept(i), 0) / inIndex.length);
    expect(f?.evidence).toContain(
      `Measured on the ${inIndex.length} items of the index in all ${report.draw.itemsRead} items: an index item averages ${now} bytes as projected now and ${then} with INCLUDE`,
    );
    expect(f?.action?.kind === 'show-change' && f.action.cloudFormation).toContain(
      'NonKeyAttributes: ["note.text"]',
    );
    expect(f?.monthlySavings).toBeGreaterThan(0);
    expect(report.cost.region).toBe('us-east-1');
    expect(report.cost.prices).toContain('US East (N. Virginia) (us-east-1) list prices');
  });

  it('keeps the last report per table on disk, and sets an unreadable one aside with a sentence', async () => {
    const report = await check('sample');
    const latest = await h.call<HealthReport | null>('health:latest', { connectionId: 'local', table });
    expect(latest.ok && latest.value?.reportId).toBe(report.reportId);
    // What a restart reads: the file alone, no memory of the run.
    expect((await lastHealthReport(h.ctx.dataDir, 'local', table))?.createdAt).toBe(report.createdAt);
    const none = await h.call('health:latest', { connectionId: 'local', table: 'NeverChecked' });
    expect(none).toEqual({ ok: true, value: null });
    const folder = join(h.ctx.dataDir, 'health', 'local');
    const [file] = readdirSync(folder).filter((f) => f.endsWith('.json'));
    writeFileSync(join(folder, file!), '{"reportId": "cut short');
    const broken = await h.call('health:latest', { connectionId: 'local', table });
    expect(broken).toMatchObject({ ok: false, error: { code: 'DataFileSetAside' } });
    expect(readdirSync(folder).some((f) => f.includes('.unreadable-'))).toBe(true);
  });

  it('the staged TTL fix turns milliseconds into seconds and leaves every other byte as it was', async () => {
    const before = await rawScanItems(endpoint, table);
    const plan = await operation<FixPlanSummary>('migration:fixPlan', {
      connectionId: 'local',
      table,
      policy: 'review',
      ttlOnly: true,
    });
    expect(plan.updates).toBe(13);
    expect(plan.moves).toBe(0);
    const result = await operation<FixResult>('migration:fixRun', {
      connectionId: 'local',
      planId: plan.planId,
    });
    expect(result.written).toBe(13);
    const after = await rawScanItems(endpoint, table);
    const keyOf = (i: Record<string, unknown>) => JSON.stringify([i.pk, i.sk]);
    const afterByKey = new Map(after.map((i) => [keyOf(i), i]));
    expect(after).toHaveLength(before.length);
    for (const old of before) {
      const now = afterByKey.get(keyOf(old)) as Record<string, unknown>;
      const { expiresAt: was, ...rest } = old;
      const { expiresAt: is, ...restNow } = now;
      expect(Object.keys(restNow).sort()).toEqual(Object.keys(rest).sort());
      for (const name of Object.keys(rest))
        expect(JSON.stringify(restNow[name]), name).toBe(JSON.stringify(rest[name]));
      const n = (was as { N?: string } | undefined)?.N;
      if (n !== undefined && n.length >= 13) expect(is).toEqual({ N: String(Math.floor(Number(n) / 1000)) });
      else expect(JSON.stringify(is)).toBe(JSON.stringify(was));
    }
    const again = await check('full');
    expect(again.ttl.counts.milliseconds).toBe(0);
  });
});
