import { describe, expect, it } from 'vitest';
import { Budget } from '../../src/main/agent/budget';
import { allowedTools } from '../../src/main/agent/tool-runner';
import { type AgentSettings, type Connection, defaultAgentSettings } from '../../src/shared/ipc';

const limits = { modelCalls: 3, toolCalls: 4, tokens: 1000, itemsRead: 100, readCapacity: 10 };

describe('the per-question budget', () => {
  it('reaches nothing while everything is below its limit', () => {
    const budget = new Budget(limits);
    Object.assign(budget.usage, {
      modelCalls: 2,
      toolCalls: 3,
      inputTokens: 500,
      outputTokens: 499,
      itemsRead: 99,
      readCapacity: 9.5,
    });
    expect(budget.reached()).toBeUndefined();
  });

  it('names each limit as it is reached, tokens counting input and output together', () => {
    const cases: [Partial<Budget['usage']>, string][] = [
      [{ modelCalls: 3 }, '3 model calls'],
      [{ toolCalls: 4 }, '4 tool calls'],
      [{ inputTokens: 600, outputTokens: 400 }, '1000 tokens'],
      [{ itemsRead: 100 }, '100 items read'],
      [{ readCapacity: 10 }, '10 read capacity units'],
    ];
    for (const [usage, phrase] of cases) {
      const budget = new Budget(limits);
      Object.assign(budget.usage, usage);
      expect(budget.reached()).toBe(phrase);
    }
  });

  it('bounds what a single read may still fetch, never below zero', () => {
    const budget = new Budget(limits);
    budget.usage.itemsRead = 60;
    budget.usage.readCapacity = 7.5;
    expect(budget.remainingItems()).toBe(40);
    expect(budget.remainingCapacity()).toBe(2.5);
    budget.usage.itemsRead = 250;
    budget.usage.readCapacity = 12;
    expect(budget.remainingItems()).toBe(0);
    expect(budget.remainingCapacity()).toBe(0);
  });

  it('adds every read to one total, and says which budget cut a read short', () => {
    const budget = new Budget(limits);
    expect(budget.count({ items: 60, consumedCapacity: 2, isPartial: false })).toBeUndefined();
    expect(budget.allowance()).toEqual({ items: 40, capacity: 8 });
    expect(budget.count({ items: 40, consumedCapacity: 1.5, isPartial: true })).toBe(
      'The items budget of this question (100 items) was reached: reading stopped after 40 items in this call (100 in all), so the result covers only part of the data.',
    );
    const capacity = new Budget(limits);
    expect(capacity.count({ items: 3, consumedCapacity: 10.5, isPartial: true })).toBe(
      'The read capacity budget of this question (10 RCU) was reached: reading stopped after 3 items in this call, DynamoDB reporting 10.5 RCU consumed (10.5 in all), so the result covers only part of the data.',
    );
    expect(capacity.reached()).toBe('10 read capacity units');
  });

  it('says nothing of a read that stopped short for its own reasons', () => {
    const budget = new Budget(limits);
    expect(budget.count({ items: 5, consumedCapacity: 0.5, isPartial: true })).toBeUndefined();
    expect(budget.usage).toMatchObject({ itemsRead: 5, readCapacity: 0.5 });
  });
});

describe('tools offered to the model', () => {
  const connection = { id: 'c', label: 'Test', readOnly: false } as Connection;
  const settings = (mode: AgentSettings['mode']): AgentSettings => ({ ...defaultAgentSettings, mode });

  it('offers the write tool only where writing is allowed', () => {
    expect(allowedTools(connection, settings('auto-read'), true)).toContain('propose_changes');
    expect(allowedTools(connection, settings('ask'), true)).toContain('propose_changes');
    expect(allowedTools(connection, settings('read-only'), true)).not.toContain('propose_changes');
    expect(allowedTools({ ...connection, readOnly: true }, settings('auto-read'), true)).not.toContain(
      'propose_changes',
    );
  });

  it('offers run_sql only when the SQL engine is there', () => {
    expect(allowedTools(connection, settings('auto-read'), false)).not.toContain('run_sql');
    expect(allowedTools(connection, settings('auto-read'), true)).toContain('run_sql');
  });
});
