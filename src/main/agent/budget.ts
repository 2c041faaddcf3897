import type { AgentBudgets, AgentUsage } from '../../shared/ipc/agent-events';

/** Counts what one question has spent and says which budget, if any, it has reached. */
export class Budget {
  readonly usage: AgentUsage = {
    modelCalls: 0,
    toolCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    itemsRead: 0,
    readCapacity: 0,
  };

  constructor(readonly limits: AgentBudgets) {}

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
}
