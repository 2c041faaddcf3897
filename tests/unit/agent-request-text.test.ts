import { describe, expect, it } from 'vitest';
import { requestText, substitute, valueText } from '../../src/renderer/features/agent/request-text';

// The approval card's words come from the exact request main will send, so they must say what
// the request does: placeholders resolved, values as a person writes them, nothing invented.

describe('approval requests in words', () => {
  it('writes values the way a person reads them', () => {
    expect(valueText({ S: 'Tokyo' })).toBe('"Tokyo"');
    expect(valueText({ N: '12345678901234567890123456789012345678' })).toBe(
      '12345678901234567890123456789012345678',
    );
    expect(valueText({ BOOL: false })).toBe('false');
    expect(valueText({ NULL: true })).toBe('null');
    expect(valueText({ L: [{ N: '1' }, { S: 'a' }] })).toBe('[1, "a"]');
    expect(valueText({ M: { city: { S: 'Kyoto' } } })).toBe('{city: "Kyoto"}');
    expect(valueText({ SS: ['a', 'b'] })).toBe('<<a, b>>');
  });

  it('resolves #name and :value placeholders once, never inside substituted text', () => {
    const request = {
      ExpressionAttributeNames: { '#n0': 'status', '#n1': 'note' },
      ExpressionAttributeValues: { ':v0': { S: 'PAID' }, ':v1': { S: 'see #n0 and :v0' } },
    };
    expect(substitute('SET #n0 = :v0, #n1 = :v1', request)).toBe(
      'SET status = "PAID", note = "see #n0 and :v0"',
    );
  });

  it('describes an update: key, change and condition', () => {
    const text = requestText({
      operation: 'UpdateItem',
      TableName: 'Orders',
      Key: { PK: { S: 'USER#u1' }, SK: { S: 'PROFILE' } },
      UpdateExpression: 'SET #n0 = :v0 REMOVE #n1',
      ConditionExpression: 'attribute_exists(#n2) AND #n1 = :v1 AND attribute_not_exists(#n0)',
      ExpressionAttributeNames: { '#n0': 'vip', '#n1': 'trial', '#n2': 'PK' },
      ExpressionAttributeValues: { ':v0': { BOOL: true }, ':v1': { N: '1' } },
    });
    expect(text).toEqual({
      action: 'Update',
      table: 'Orders',
      key: 'USER#u1 · PROFILE',
      change: 'SET vip = true REMOVE trial',
      condition: 'only if PK exists and trial = 1 and vip is not set',
    });
  });

  it('summarises a whole-item condition that would not fit on a card', () => {
    const names = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`#n${i}`, `attribute${i}`]));
    const values = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`:v${i}`, { S: `a fairly long value ${i}` }]),
    );
    const text = requestText({
      operation: 'DeleteItem',
      TableName: 'Orders',
      Key: { PK: { S: 'USER#u2' } },
      ConditionExpression: Array.from({ length: 12 }, (_, i) => `#n${i} = :v${i}`).join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    });
    expect(text.action).toBe('Delete');
    expect(text.condition).toBe('only if the item is unchanged since it was read (12 attributes compared)');
  });

  it('lists what a put writes, and what a read asks for', () => {
    const put = requestText({
      operation: 'PutItem',
      TableName: 'T',
      Item: { pk: { S: 'a' }, n: { N: '2' } },
    });
    expect(put.change).toBe('write 2 attributes: {pk: "a", n: 2}');
    const query = requestText({
      operation: 'Query',
      TableName: 'T',
      IndexName: 'GSI1',
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': 'GSI1PK' },
      ExpressionAttributeValues: { ':pk': { S: 'STATUS#PAID' } },
      Limit: 20000,
    });
    expect(query).toMatchObject({
      action: 'Query',
      table: 'T (GSI1)',
      change: 'where GSI1PK = "STATUS#PAID", up to 20,000 items',
    });
  });
});
