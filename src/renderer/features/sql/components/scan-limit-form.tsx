import { useId, useState } from 'react';
import type { AppError } from '../../../../shared/ipc';
import type { AthenaSavedSettings, ScanLimitsInput } from '../../../../shared/ipc/athena';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { TextInput } from '../../../ui/text-input';
import { CapacityUnit } from '../../../ui/capacity-unit';

const gb = (bytes: number): string =>
  `${(bytes / 1e9).toLocaleString('en-US', { maximumFractionDigits: 1 })} GB`;

/** "4.3 GB · 1,000,000 items": the limit in force, as the toolbar shows it. */
export function limitText(limits: ScanLimitsInput): string {
  const parts = [
    limits.bytes !== undefined ? gb(limits.bytes) : undefined,
    limits.items !== undefined ? `${limits.items.toLocaleString('en-US')} items` : undefined,
    limits.rcu !== undefined ? `${limits.rcu.toLocaleString('en-US')} RCU` : undefined,
  ].filter((p): p is string => p !== undefined);
  return parts.length > 0 ? parts.join(' · ') : 'none';
}

const typed = (value: number | undefined, scale = 1): string =>
  value === undefined ? '' : String(Math.round((value / scale) * 100) / 100);

/** A field's number, or why it is not one; empty is no limit of that kind. */
function parsed(text: string, label: string, scale = 1): { value?: number; problem?: string } {
  const t = text.trim().replace(/,/g, '');
  if (t === '') return {};
  const n = Number(t);
  if (!Number.isFinite(n) || n <= 0) return { problem: `${label} wants a number above 0, not "${text}".` };
  return { value: Math.max(1, Math.round(n * scale)) };
}

export interface ScanLimitFormProps {
  settings: AthenaSavedSettings;
  onSave(limits: ScanLimitsInput | null): Promise<AppError | undefined>;
  onClose(): void;
}

/**
 * The scan limit past which a statement that would scan a table whole does not run locally
 * until the user chooses (issue 17). Main keeps it with the connection and holds sql:run to it.
 */
export function ScanLimitForm({ settings, onSave, onClose }: ScanLimitFormProps) {
  const id = useId();
  const [bytes, setBytes] = useState(typed(settings.limits.bytes, 1e9));
  const [items, setItems] = useState(typed(settings.limits.items));
  const [rcu, setRcu] = useState(typed(settings.limits.rcu));
  const [problem, setProblem] = useState<string | undefined>();
  const [error, setError] = useState<AppError | undefined>();
  const save = async (limits: ScanLimitsInput | null) => {
    const failed = await onSave(limits);
    setError(failed);
    if (!failed) onClose();
  };
  return (
    <form
      className="sql-save sql-limit-form"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        const fields = [parsed(bytes, 'GB', 1e9), parsed(items, 'Items'), parsed(rcu, 'RCU')];
        const wrong = fields.find((f) => f.problem)?.problem;
        setProblem(wrong);
        if (wrong) return;
        const [b, i, r] = fields;
        void save({
          ...(b?.value !== undefined ? { bytes: b.value } : {}),
          ...(i?.value !== undefined ? { items: i.value } : {}),
          ...(r?.value !== undefined ? { rcu: r.value } : {}),
        });
      }}
    >
      <span id={`${id}-title`} className="sql-limit-title">
        Scan limit
      </span>
      <label>
        GB
        <TextInput label="Scan limit in GB" inputMode="decimal" size={7} value={bytes} onChange={setBytes} />
      </label>
      <label>
        Items
        <TextInput
          label="Scan limit in items"
          inputMode="numeric"
          size={11}
          value={items}
          onChange={setItems}
        />
      </label>
      <label>
        <CapacityUnit unit="RCU" />
        <TextInput label="Scan limit in RCU" inputMode="numeric" size={9} value={rcu} onChange={setRcu} />
      </label>
      <Button type="submit" variant="primary" size="sm">
        Save
      </Button>
      <Button size="sm" disabled={settings.isDefault} onClick={() => void save(null)}>
        Use the default
      </Button>
      <Button size="sm" variant="ghost" onClick={onClose}>
        Cancel
      </Button>
      <span className="sql-faint">
        A statement that would scan tables past any of these asks first: scan locally or run on Amazon Athena.
        Empty is no limit of that kind. Default: {limitText(settings.defaultLimits)}, a quarter of this
        machine&apos;s {gb(settings.machineMemoryBytes)} of memory.
      </span>
      {problem ? (
        <p className="sql-warning" role="alert">
          {problem}
        </p>
      ) : null}
      {error ? <ErrorMessage error={error} compact /> : null}
    </form>
  );
}
