import type { AgentSettings } from '../../../../shared/ipc';
import { Field } from '../../../ui/field';

type BudgetName = keyof AgentSettings['budgets'];

const budgetLabels: Record<BudgetName, string> = {
  modelCalls: 'Model calls',
  toolCalls: 'Tool calls',
  tokens: 'Tokens',
  itemsRead: 'Items read',
  readCapacity: 'Read capacity units (RCU)',
};

/** Field names as the form shows them, for validation messages. */
export const fieldLabels: Record<string, string> = {
  ...budgetLabels,
  askAboveReadCapacity: 'Approval above (RCU)',
  modelId: 'Model',
  bedrockRegion: 'Bedrock region',
  bedrockProfile: 'AWS profile',
  bedrockEndpoint: 'Bedrock endpoint',
  allowedTables: 'Tables',
};

export interface BudgetFieldsProps {
  draft: AgentSettings;
  onChange: (next: AgentSettings) => void;
}

/** What one question may spend; when a budget is reached the agent answers with what it has. */
export function BudgetFields({ draft, onChange }: BudgetFieldsProps) {
  const number = (id: string, value: number, set: (value: number) => void) => (
    <input
      id={id}
      type="number"
      min={0}
      className="input"
      value={Number.isFinite(value) ? value : ''}
      onChange={(e) => set(e.target.valueAsNumber)}
    />
  );
  return (
    <section className="agent-settings-section">
      <h3>Budget per question</h3>
      <div className="agent-settings-grid">
        {(Object.keys(budgetLabels) as BudgetName[]).map((name) => (
          <Field key={name} label={budgetLabels[name]} htmlFor={`agent-budget-${name}`}>
            {number(`agent-budget-${name}`, draft.budgets[name], (value) =>
              onChange({ ...draft, budgets: { ...draft.budgets, [name]: value } }),
            )}
          </Field>
        ))}
        <Field
          label="Approval above (RCU)"
          htmlFor="agent-ask-above"
          hint={
            draft.mode === 'ask'
              ? 'Reads estimated above this many read capacity units wait for your approval.'
              : 'Used in Approve first mode.'
          }
        >
          {number('agent-ask-above', draft.askAboveReadCapacity, (value) =>
            onChange({ ...draft, askAboveReadCapacity: value }),
          )}
        </Field>
      </div>
    </section>
  );
}
