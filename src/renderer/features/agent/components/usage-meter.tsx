import type { AgentBudgets, AgentUsage } from '../../../../shared/ipc';

const amount = (n: number): string => (Number.isInteger(n) ? n.toLocaleString('en-US') : n.toFixed(1));

function Meter({ label, hint, used, limit }: { label: string; hint?: string; used: number; limit: number }) {
  const fraction = Math.min(1, limit > 0 ? used / limit : 0);
  return (
    <div
      className={`agent-meter${fraction >= 1 ? ' is-full' : fraction > 0.8 ? ' is-high' : ''}`}
      title={`${hint ?? label}: ${amount(used)} of ${limit.toLocaleString('en-US')}`}
    >
      <span className="agent-meter-label">{label}</span>
      <span className="meter agent-meter-bar">
        <span style={{ width: `${fraction * 100}%` }} />
      </span>
      <span className="agent-meter-value">
        {amount(used)} / {limit.toLocaleString('en-US')}
      </span>
    </div>
  );
}

/** What the current question has spent against its budgets: tokens and read capacity first. */
export function UsageMeter({ usage, budgets }: { usage: AgentUsage; budgets: AgentBudgets }) {
  return (
    <div className="agent-meters" role="group" aria-label="Budget used by this question">
      <Meter label="Tokens" used={usage.inputTokens + usage.outputTokens} limit={budgets.tokens} />
      <Meter
        label="RCU"
        hint="Read capacity consumed, as DynamoDB reported it"
        used={usage.readCapacity}
        limit={budgets.readCapacity}
      />
      <Meter label="Items" used={usage.itemsRead} limit={budgets.itemsRead} />
      <Meter label="Calls" used={usage.modelCalls} limit={budgets.modelCalls} />
    </div>
  );
}
