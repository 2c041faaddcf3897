import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { singleTableDefinition } from '../../../src/shared/dynamo/table-definition';
import type { ItemsHarness } from '../../support/items-context';
import { failure } from '../../support/items-assert';
import { uniqueTableName } from '../../support/dynamo-local';
import {
  createThrough,
  describeRaw,
  nextRequestId,
  progressMessages,
  tableAdminHarness,
  updateThrough,
} from '../../support/table-admin';

let h: ItemsHarness;
beforeAll(() => {
  h = tableAdminHarness(inject('dynamoEndpoint'));
});
afterAll(() => h.close());

const remove = (table: string, confirmTable: string, connectionId = 'local', confirmProduction?: boolean) =>
  h.call('tables:delete', {
    connectionId,
    table,
    requestId: nextRequestId('delete'),
    confirmTable,
    ...(confirmProduction === undefined ? {} : { confirmProduction }),
  });

describe('tables:delete against DynamoDB Local', () => {
  it('refuses while deletion protection is on, then deletes once it is off and the name is typed', async () => {
    const table = uniqueTableName('del');
    await createThrough(h, { ...singleTableDefinition(table), deletionProtection: true });
    expect(failure(await remove(table, table), 'DeletionProtected').message).toMatch(
      /Turn deletion protection off first/,
    );
    expect((await describeRaw(h, table)).TableStatus).toBe('ACTIVE');

    await updateThrough(h, table, { kind: 'deletionProtection', enabled: false });
    expect(failure(await remove(table, 'something else'), 'ConfirmationRequired').message).toMatch(
      new RegExp(`Type ${table} to confirm`),
    );
    expect((await describeRaw(h, table)).TableStatus).toBe('ACTIVE');

    const requestId = nextRequestId('delete');
    const finished = h.waitFor(requestId);
    const started = await h.call('tables:delete', {
      connectionId: 'local',
      table,
      requestId,
      confirmTable: table,
    });
    expect(started.ok).toBe(true);
    const { last, events } = await finished;
    expect(last).toMatchObject({ type: 'done', value: { table, deleted: true } });
    expect(progressMessages(events).at(-1)).toBe(`${table} is deleted.`);
    await expect(describeRaw(h, table)).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it('asks a production connection for a second confirmation, and a read-only one refuses', async () => {
    const table = uniqueTableName('del_prod');
    await createThrough(h, singleTableDefinition(table));
    expect(failure(await remove(table, table, 'prod'), 'ConfirmationRequired').message).toMatch(
      /production connection: confirm a second time/,
    );
    failure(await remove(table, table, 'ro', true), 'ReadOnlyConnection');
    expect((await describeRaw(h, table)).TableStatus).toBe('ACTIVE');
    const requestId = nextRequestId('delete');
    const finished = h.waitFor(requestId);
    await h.call('tables:delete', {
      connectionId: 'prod',
      table,
      requestId,
      confirmTable: table,
      confirmProduction: true,
    });
    expect((await finished).last.type).toBe('done');
    await expect(describeRaw(h, table)).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });
});
