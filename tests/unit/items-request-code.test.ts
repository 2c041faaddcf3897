import { describe, expect, it } from 'vitest';
import { buildReadRequest } from '../../src/shared/dynamo/read-request';
import { codeTargetOf, toAwsCli, toSdkV3Code } from '../../src/shared/dynamo/request-code';
import type { Connection } from '../../src/shared/ipc';

const keys = {
  partitionKey: { name: 'PK', type: 'S' as const },
  sortKey: { name: 'SK', type: 'S' as const },
};
const target = { table: 'Orders', keys, indexes: [] };
const base: Connection = {
  id: 'c',
  label: 'c',
  color: '#000000',
  kind: 'profile',
  region: 'eu-west-1',
  readOnly: false,
  isProduction: false,
};

describe('where copied code sends the request', () => {
  it('gives the playground its endpoint, a real region and keys DynamoDB Local accepts', () => {
    const playground = codeTargetOf(
      { ...base, kind: 'playground', region: 'local' },
      'http://127.0.0.1:8123',
    );
    expect(playground).toEqual({
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:8123',
      hasLocalKeys: true,
    });
  });

  it('keeps a real region, the custom endpoint and the profile', () => {
    const custom = codeTargetOf({ ...base, profile: 'dev', endpoint: 'http://localhost:4566' });
    expect(custom).toEqual({ region: 'eu-west-1', endpoint: 'http://localhost:4566', profile: 'dev' });
    expect(codeTargetOf({ ...base, kind: 'keys', region: 'local', endpoint: 'http://h:8000' }).region).toBe(
      'us-east-1',
    );
  });
});

describe('a Query or Scan as code', () => {
  const request = buildReadRequest(target, {
    mode: 'query',
    partitionKey: { S: "USER#o'neil" },
    filter: {
      kind: 'group',
      join: 'AND',
      items: [{ kind: 'condition', path: ['status'], op: '=', value: { S: 'PAID' } }],
    },
    descending: true,
    consistent: true,
  });
  const where = { region: 'us-east-1', endpoint: 'http://127.0.0.1:8000', hasLocalKeys: true };

  it('writes the AWS CLI line with switches for booleans, paging, endpoint and region', () => {
    const cli = toAwsCli(request, where, { pageSize: 50, maxItems: 200, untilMatches: true });
    expect(cli).toMatch(/^AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local aws dynamodb query \\/);
    expect(cli).toContain(`--key-condition-expression '#n0 = :v0'`);
    expect(cli).toContain(`"S":"USER#o'\\''neil"`);
    expect(cli).toContain('--no-scan-index-forward');
    expect(cli).toContain('--consistent-read');
    expect(cli).not.toContain(`'true'`);
    expect(cli).toContain('--page-size 50');
    expect(cli).toContain('--max-items 200');
    expect(cli).toContain(`--endpoint-url 'http://127.0.0.1:8000'`);
    expect(cli.trimEnd().endsWith(`--region 'us-east-1'`)).toBe(true);
  });

  it('says "evaluate N" in one request when a filtered read without "until matches" fits a page', () => {
    const cli = toAwsCli(request, where, { pageSize: 100, maxItems: 100, untilMatches: false });
    expect(cli).toContain('--limit 100');
    expect(cli).toContain('--no-paginate');
  });

  it('writes SDK v3 code that pages as DynoTable does', () => {
    const code = toSdkV3Code(request, where, { pageSize: 25, maxItems: 60, untilMatches: false });
    expect(code).toContain('import { DynamoDBClient, QueryCommand } from "@aws-sdk/client-dynamodb";');
    expect(code).toContain('endpoint: "http://127.0.0.1:8000"');
    expect(code).toContain('credentials: { accessKeyId: "local", secretAccessKey: "local" }');
    expect(code).toContain('const Limit = Math.min(25, 60 - evaluated);');
    expect(code).toContain('ScanIndexForward: false');
    expect(code).toContain('} while (ExclusiveStartKey && evaluated < 60);');
  });
});
