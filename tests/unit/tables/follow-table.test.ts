import type { TableDescription } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { untilActive, untilIndexGone } from '../../../src/main/dynamo/table-admin/follow-table';

const table = (indexes: TableDescription['GlobalSecondaryIndexes'], status = 'ACTIVE'): TableDescription => ({
  TableName: 'Orders',
  TableStatus: status as TableDescription['TableStatus'],
  GlobalSecondaryIndexes: indexes,
});

describe('following a table until its change is done', () => {
  it('waits for the table, then for every index, and says what DescribeTable reports', () => {
    expect(untilActive(undefined)).toEqual({
      isDone: false,
      message: 'Waiting for DynamoDB to describe the table…',
    });
    expect(untilActive(table([], 'CREATING'))).toEqual({ isDone: false, message: 'Orders is CREATING…' });
    expect(untilActive(table([{ IndexName: 'GSI2', IndexStatus: 'CREATING', Backfilling: true }]))).toEqual({
      isDone: false,
      message: 'Index GSI2 is backfilling: DynamoDB is copying existing items into it…',
    });
    expect(
      untilActive(table([{ IndexName: 'GSI2', IndexStatus: 'CREATING', Backfilling: false }])).message,
    ).toBe('Index GSI2 is CREATING…');
    expect(untilActive(table([{ IndexName: 'GSI2', IndexStatus: 'ACTIVE' }]))).toEqual({
      isDone: true,
      message: 'Orders is ACTIVE.',
    });
  });

  it('waits for a deleted index to be gone, not just for the table to be ACTIVE', () => {
    const check = untilIndexGone('GSI2');
    expect(check(table([{ IndexName: 'GSI2', IndexStatus: 'DELETING' }]))).toEqual({
      isDone: false,
      message: 'Index GSI2 is being deleted…',
    });
    expect(check(table([{ IndexName: 'GSI1', IndexStatus: 'ACTIVE' }])).isDone).toBe(true);
  });
});
