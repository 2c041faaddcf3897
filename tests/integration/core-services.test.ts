import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createUnavailableSecretStore } from '../../src/main/aws/secret-store';
import { createCore, shutdownCore } from '../../src/main/create-core';
import { agentService } from '../../src/main/agent/agent-service';
import { migrationStore } from '../../src/main/migration/service';
import { runningSqlService, sqlServiceFor } from '../../src/main/sql/service-registry';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable } from '../support/dynamo-tables';

// Issue 16 item 4: the SQL, agent and migration services hang off the one core context, and the
// one shutdown closes them, the SQL worker and the clients, whoever made the core.
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-core-services-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('services on the core context', () => {
  it('are made once from the context, see its clients, and one shutdown closes them all', async () => {
    const endpoint = inject('dynamoEndpoint');
    const admin = localClient(endpoint);
    const table = await createTable(admin, uniqueTableName('coresvc'), { partitionKey: ['pk', 'S'] });
    admin.destroy();
    const client = localClient(endpoint);
    let destroyed = 0;
    const original = client.destroy.bind(client);
    client.destroy = () => {
      destroyed++;
      original();
    };
    // A client served for one connection id, as `dynotable mcp --endpoint` does.
    const ctx = createCore({
      mode: 'browser',
      version: 'test',
      dataDir: dir,
      secrets: createUnavailableSecretStore(),
      openUrl: () => Promise.resolve(),
      wrapClients: (clients) => ({
        dynamo: (id) => (id === 'command-line' ? Promise.resolve(client) : clients.dynamo(id)),
        dynamoIn: (id, region) =>
          id === 'command-line' ? Promise.resolve(client) : clients.dynamoIn(id, region),
        invalidate: (id) => clients.invalidate(id),
        destroy: () => {
          client.destroy();
          clients.destroy();
        },
      }),
    });
    const sql = sqlServiceFor(ctx);
    // Once per core, a copy of the context included (`{ ...core, clients }` once got a second worker).
    expect(sqlServiceFor({ ...ctx })).toBe(sql);
    expect(agentService({ ...ctx })).toBe(agentService(ctx));
    expect(migrationStore({ ...ctx })).toBe(migrationStore(ctx));

    // The SQL worker reads through the core's (wrapped) clients. A statement naming the table,
    // not the whole catalog: that samples at most 100 tables, and the shared DynamoDB Local holds
    // more while other files run beside this one (CI once failed here on exactly that).
    const plan = await sql.plan('command-line', `SELECT * FROM "${table}"`, []);
    expect(JSON.stringify(plan)).toContain(table);

    await shutdownCore(ctx);
    expect(destroyed).toBe(1);
    await expect(sql.catalog('command-line', [])).rejects.toThrow(/SQL service is closed/);
    // Nothing starts a new worker on a core that was shut down.
    expect(() => sqlServiceFor(ctx)).toThrow(/shutting down/);
    expect(runningSqlService(ctx)).toBeUndefined();
  });
});
