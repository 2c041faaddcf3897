import type { AgentBudgets, AgentUsage } from '../../shared/ipc/agent-events';

/** What one read may still spend: items it may return, RCU it may consume. */
export interface ReadAllowance {
  items: number;
  capacity: number;
}

/** A finished read, as DynamoDB reported it. */
export interface CountedRead {
  items: number;
  /** The ConsumedCapacity DynamoDB returned, summed over the read's requests. */
  consumedCapacity: number;
  /** The read stopped before it had everything it asked for. */
  isPartial: boolean;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const rcu = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/**
 * Counts what one question has spent and says which budget, if any, it has reached. The items
 * and capacity budgets are cumulative over every read of the question, whatever tool made it;
 * capacity is what DynamoDB reports consumed, never an estimate.
 */
export class Budget {
  readonly usage: AgentUsage = {
    modelCalls: 0,
    toolCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    itemsRead: 0,
    readCapacity: 0,
  };

  /** `scope` names what the budget covers in its sentences: the agent's question, or one MCP call. */
  constructor(
    readonly limits: AgentBudgets,
    readonly scope = 'this question',
  ) {}

  /** The first budget that is used up, as a phrase for the user and the model. */
  reached(): string | undefined {
    const u = this.usage;
    if (u.modelCalls >= this.limits.modelCalls) return `${this.limits.modelCalls} model calls`;
    if (u.toolCalls >= this.limits.toolCalls) return `${this.limits.toolCalls} tool calls`;
    if (u.inputTokens + u.outputTokens >= this.limits.tokens) return `${this.limits.tokens} tokens`;
    if (u.itemsRead >= this.limits.itemsRead) return `${this.limits.itemsRead} items read`;
    if (u.readCapacity >= this.limits.readCapacity) return `${this.limits.readCapacity} read capacity units`;
    return undefined;
  }

  /** Items a read may still return, so a single scan cannot overshoot the budget. */
  remainingItems(): number {
    return Math.max(0, this.limits.itemsRead - this.usage.itemsRead);
  }

  remainingCapacity(): number {
    return Math.max(0, this.limits.readCapacity - this.usage.readCapacity);
  }

  allowance(): ReadAllowance {
    return { items: this.remainingItems(), capacity: this.remainingCapacity() };
  }

  /**
   * Adds a read to the totals. When a budget cut it short, returns the sentence that tells the
   * model (in the tool result) and the user (in the step) which budget and how much was read.
   */
  count(read: CountedRead): string | undefined {
    const left = this.allowance();
    this.usage.itemsRead += read.items;
    this.usage.readCapacity += read.consumedCapacity;
    if (!read.isPartial) return undefined;
    const total = this.usage;
    if (read.items >= left.items) {
      return `The items budget of ${this.scope} (${plural(this.limits.itemsRead, 'item')}) was reached: reading stopped after ${plural(read.items, 'item')} in this call (${total.itemsRead} in all), so the result covers only part of the data.`;
    }
    if (read.consumedCapacity >= left.capacity) {
      return `The read capacity budget of ${this.scope} (${rcu(this.limits.readCapacity)} RCU) was reached: reading stopped after ${plural(read.items, 'item')} in this call, DynamoDB reporting ${rcu(read.consumedCapacity)} RCU consumed (${rcu(total.readCapacity)} in all), so the result covers only part of the data.`;
    }
    return undefined;
  }
}
