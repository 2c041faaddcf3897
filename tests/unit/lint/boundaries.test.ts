import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layer boundaries of shared/STYLE.md §13, checked against the real eslint.config.js.
 * Type-aware rules are switched off here: these files exist only in memory.
 */
const root = resolve(import.meta.dirname, '../../..');
const projectConfig = createRequire(import.meta.url)(resolve(root, 'eslint.config.js')) as Linter.Config[];
const config: Linter.Config[] = [...projectConfig, tseslint.configs.disableTypeChecked];
const linter = new Linter({ cwd: root });

function boundaryErrors(file: string, source: string): string[] {
  return linter
    .verify(source, config, resolve(root, file))
    .filter(
      (message) => message.ruleId === 'no-restricted-imports' || message.ruleId === 'no-restricted-syntax',
    )
    .map((message) => message.message);
}

const refused = (file: string, from: string) =>
  boundaryErrors(file, `import x from '${from}';\nexport default x;\n`);

// The first verify loads every plugin's rules: past a test's 5 s on a busy machine, so it is done once here.
beforeAll(() => {
  linter.verify('export {};\n', config, resolve(root, 'src/main/probe.ts'));
}, 60_000);

describe('import boundaries', () => {
  const rendererFile = 'src/renderer/features/tables/components/probe.tsx';

  it.each([
    'electron',
    'node:fs',
    'fs',
    'path',
    '@aws-sdk/client-dynamodb',
    '@smithy/node-http-handler',
    '../../../../main/create-core',
    '../../../../preload/bridge',
  ])('refuses %s in the renderer', (from) => {
    expect(refused(rendererFile, from)).not.toEqual([]);
  });

  it.each(['react', 'zustand', '../../../../shared/ipc', '../store', './table-row'])(
    'allows %s in the renderer',
    (from) => {
      expect(refused(rendererFile, from)).toEqual([]);
    },
  );

  it.each([
    'electron',
    'react',
    'react-dom',
    'node:path',
    'crypto',
    '../../main/core/context',
    '../../renderer/ipc/client',
  ])('refuses %s in src/shared', (from) => {
    expect(refused('src/shared/ipc/probe.ts', from)).not.toEqual([]);
  });

  it.each(['zod', '../errors', './contract'])('allows %s in src/shared', (from) => {
    expect(refused('src/shared/ipc/probe.ts', from)).toEqual([]);
  });

  it.each(['zod', 'node:fs', '@aws-sdk/client-dynamodb', '../main/create-core', '../renderer/ipc/client'])(
    'refuses %s in the preload',
    (from) => {
      expect(refused('src/preload/probe.ts', from)).not.toEqual([]);
    },
  );

  it.each(['electron', '../shared/ipc/contract', './bridge'])('allows %s in the preload', (from) => {
    expect(refused('src/preload/probe.ts', from)).toEqual([]);
  });

  it('keeps UI code out of main', () => {
    expect(refused('src/main/ipc/probe.ts', '../../renderer/ipc/client')).not.toEqual([]);
    expect(refused('src/main/ipc/probe.ts', 'electron')).toEqual([]);
    expect(refused('src/main/ipc/probe.ts', 'node:fs')).toEqual([]);
  });

  it.each([
    '../dynamo/query/run-read',
    '../../main/dynamo/marshal',
    '../aws/clients',
    '@aws-sdk/client-dynamodb',
  ])('refuses %s in the result-set worker', (from) => {
    expect(refused('src/main/resultsets/probe.ts', from)).not.toEqual([]);
  });

  it.each(['./item-codec', '../core/context', '../../shared/ipc/query', 'node:zlib'])(
    'allows %s in the result-set worker',
    (from) => {
      expect(refused('src/main/resultsets/probe.ts', from)).toEqual([]);
    },
  );

  it('lets dynamo/ hand work to the result-set store', () => {
    expect(refused('src/main/dynamo/query/probe.ts', '../../resultsets/write-sync')).toEqual([]);
    expect(refused('src/main/resultsets/probe.ts', '../../renderer/ipc/client')).not.toEqual([]);
  });
});

describe('one door for writes', () => {
  const planted = (names: string) =>
    `import { ${names} } from '@aws-sdk/client-dynamodb';\nexport const x = [${names}];\n`;

  it.each([
    'PutItemCommand',
    'UpdateItemCommand',
    'DeleteItemCommand',
    'TransactWriteItemsCommand',
    'BatchWriteItemCommand',
    'DynamoDB',
  ])('refuses %s outside src/main/dynamo/writes/', (name) => {
    for (const file of [
      'src/main/agent/probe.ts',
      'src/main/migration/probe.ts',
      'src/main/dynamo/items/probe.ts',
      'src/main/mcp/probe.ts',
      'src/cli/commands/probe.ts',
    ])
      expect(boundaryErrors(file, planted(name)).join(' ')).toMatch(/one write door/);
  });

  it('refuses a namespace import, which reaches every command', () => {
    const source = `import * as sdk from '@aws-sdk/client-dynamodb';\nexport const x = sdk;\n`;
    expect(boundaryErrors('src/main/journal/probe.ts', source)).not.toEqual([]);
  });

  it.each([
    'src/main/journal/probe.ts',
    'src/main/migration/probe.ts',
    'src/cli/commands/probe.ts',
    // A folder no layer names yet still has the door.
    'src/tools/probe.ts',
  ])('refuses the document client, import() and require() of the SDK in %s', (file) => {
    const documentClient = `import { PutCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\nexport const x = [PutCommand, DynamoDBDocumentClient];\n`;
    expect(boundaryErrors(file, documentClient).join(' ')).toMatch(/one write door/);
    const dynamic = `export const sdk = () => import('@aws-sdk/client-dynamodb');\n`;
    expect(boundaryErrors(file, dynamic).join(' ')).toMatch(/one write door/);
    const required = `declare const require: (m: string) => unknown;\nexport const sdk = require('@aws-sdk/lib-dynamodb');\n`;
    expect(boundaryErrors(file, required).join(' ')).toMatch(/one write door/);
    expect(boundaryErrors(file, planted('UpdateItemCommand')).join(' ')).toMatch(/one write door/);
  });

  it('lets writes/ send them, and everyone else read', () => {
    expect(
      boundaryErrors('src/main/dynamo/writes/probe.ts', planted('PutItemCommand, BatchWriteItemCommand')),
    ).toEqual([]);
    expect(
      boundaryErrors('src/main/agent/probe.ts', planted('GetItemCommand, QueryCommand, ScanCommand')),
    ).toEqual([]);
    expect(
      boundaryErrors(
        'src/main/dynamo/writes/probe.ts',
        `export const sdk = () => import('@aws-sdk/client-dynamodb');\n`,
      ),
    ).toEqual([]);
  });
});

describe('one client builder, one read engine', () => {
  const syntaxErrors = (file: string, source: string): string[] =>
    linter
      .verify(source, config, resolve(root, file))
      .filter((message) => message.ruleId === 'no-restricted-syntax')
      .map((message) => message.message);
  const newClient = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nexport const c = new DynamoDBClient({});\n`;
  const newScan = `import { ScanCommand, QueryCommand } from '@aws-sdk/client-dynamodb';\nexport const c = [new ScanCommand({ TableName: 't' }), new QueryCommand({ TableName: 't' })];\n`;

  it.each(['src/cli/commands/probe.ts', 'src/main/playground/probe.ts', 'src/main/sql/worker/probe.ts'])(
    'refuses a DynamoDB client built in %s',
    (file) => {
      expect(syntaxErrors(file, newClient).join(' ')).toMatch(/the one builder/);
    },
  );

  it.each(['src/main/sql/catalog/probe.ts', 'src/main/dynamo/query/probe.ts', 'src/cli/commands/probe.ts'])(
    'refuses a Scan or Query page read in %s',
    (file) => {
      expect(syntaxErrors(file, newScan)).toHaveLength(2);
    },
  );

  it('lets the builder build and the engine read', () => {
    expect(syntaxErrors('src/main/aws/dynamo-client.ts', newClient)).toEqual([]);
    expect(syntaxErrors('src/main/dynamo/read/probe.ts', newScan)).toEqual([]);
  });
});
