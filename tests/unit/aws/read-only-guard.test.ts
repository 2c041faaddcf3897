import { describe, expect, it } from 'vitest';
import { isReadOperation } from '../../../src/main/aws/read-only-guard';

describe('which operations a read-only connection may send', () => {
  it.each([
    'GetItem',
    'BatchGetItem',
    'TransactGetItems',
    'Query',
    'Scan',
    'DescribeTable',
    'ListTables',
    'DescribeTimeToLive',
  ])('allows %s', (operation) => expect(isReadOperation(operation, {})).toBe(true));

  it.each([
    'PutItem',
    'UpdateItem',
    'DeleteItem',
    'BatchWriteItem',
    'TransactWriteItems',
    'CreateTable',
    'UpdateTable',
    'DeleteTable',
    'UpdateTimeToLive',
    'TagResource',
    'RestoreTableFromBackup',
    'ImportTable',
    'ExecuteTransaction',
    'SomeOperationAddedNextYear',
  ])('refuses %s', (operation) => expect(isReadOperation(operation, {})).toBe(false));

  it('allows PartiQL only when every statement is a SELECT', () => {
    expect(isReadOperation('ExecuteStatement', { Statement: '  select * from "t" where pk = ?' })).toBe(true);
    expect(isReadOperation('ExecuteStatement', { Statement: 'DELETE FROM "t" WHERE pk = ?' })).toBe(false);
    expect(isReadOperation('ExecuteStatement', { Statement: 'UPDATE "t" SET a = 1 WHERE pk = 1' })).toBe(
      false,
    );
    expect(isReadOperation('ExecuteStatement', { Statement: 'selective nonsense' })).toBe(false);
    expect(isReadOperation('ExecuteStatement', { Statement: '-- SELECT\nDELETE FROM "t"' })).toBe(false);
    expect(isReadOperation('ExecuteStatement', {})).toBe(false);
    expect(
      isReadOperation('BatchExecuteStatement', {
        Statements: [{ Statement: 'SELECT * FROM "t"' }, { Statement: 'SELECT a FROM "u"' }],
      }),
    ).toBe(true);
    expect(
      isReadOperation('BatchExecuteStatement', {
        Statements: [{ Statement: 'SELECT * FROM "t"' }, { Statement: 'INSERT INTO "t" VALUE {}' }],
      }),
    ).toBe(false);
    expect(isReadOperation('BatchExecuteStatement', { Statements: [] })).toBe(false);
    expect(
      isReadOperation('ExecuteTransaction', { TransactStatements: [{ Statement: 'SELECT * FROM "t"' }] }),
    ).toBe(false);
  });
});
