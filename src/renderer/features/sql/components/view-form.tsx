import { useState } from 'react';
import type { AppError } from '../../../../shared/ipc';
import type { SqlCatalogOutput } from '../../../../shared/ipc/sql';
import type { KeyCondition } from '../../../../shared/sql/catalog';
import { call } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';

const OPERATORS: KeyCondition['op'][] = ['=', 'begins_with', '<', '<=', '>', '>='];

export interface ViewFormProps {
  connectionId: string;
  catalog: SqlCatalogOutput;
  onSaved(): void;
  onCancel(): void;
}

/**
 * A user-defined entity view: a name plus a key condition on the table or one of its indexes
 * (for example paid_orders = GSI1PK = 'STATUS#PAID' on GSI1). Saved with the connection.
 */
export function ViewForm({ connectionId, catalog, onSaved, onCancel }: ViewFormProps) {
  const [name, setName] = useState('');
  const [tableName, setTableName] = useState(catalog.tables[0]?.name ?? '');
  const [indexName, setIndexName] = useState('');
  const [op, setOp] = useState<KeyCondition['op']>('=');
  const [value, setValue] = useState('');
  const [error, setError] = useState<AppError | undefined>();
  const table = catalog.tables.find((t) => t.name === tableName);
  const index = table?.indexes.find((i) => i.name === indexName);
  const keys = index?.keys ?? table?.keys;
  // `=` goes on the partition key; a range or prefix on the sort key.
  const key = op === '=' ? keys?.partitionKey : (keys?.sortKey ?? keys?.partitionKey);

  const save = async () => {
    if (!table || !key) return;
    const typed = key.type === 'N' ? { N: value.trim() } : { S: value };
    const result = await call('sql:saveView', {
      connectionId,
      view: {
        name: name.trim(),
        table: table.name,
        index: index?.name,
        conditions: [{ attribute: key.name, op, values: [typed] }],
      },
    });
    if (result.ok) onSaved();
    else setError(result.error);
  };

  return (
    <form
      className="sql-view-form"
      aria-label="New entity view"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label>
        Name{' '}
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="paid_orders"
          pattern="[A-Za-z_][A-Za-z0-9_]*"
          required
        />
      </label>
      <label>
        Table
        <select
          value={tableName}
          onChange={(e) => {
            setTableName(e.target.value);
            setIndexName('');
          }}
        >
          {catalog.tables.map((t) => (
            <option key={t.name}>{t.name}</option>
          ))}
        </select>
      </label>
      <label>
        Index
        <select value={indexName} onChange={(e) => setIndexName(e.target.value)}>
          <option value="">(the table)</option>
          {table?.indexes.map((i) => (
            <option key={i.name}>{i.name}</option>
          ))}
        </select>
      </label>
      <label>
        Where <code>{key?.name ?? '—'}</code>
        <select value={op} onChange={(e) => setOp(e.target.value as KeyCondition['op'])}>
          {OPERATORS.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      </label>
      <label>
        Value{' '}
        <input value={value} onChange={(e) => setValue(e.target.value)} placeholder="STATUS#PAID" required />
      </label>
      <div className="sql-view-actions">
        <Button type="submit" variant="primary" size="sm">
          Save view
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
      {error ? <ErrorMessage error={error} compact /> : null}
    </form>
  );
}
