import { useState } from 'react';
import type { AppError } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';

/** Names the statement under the cursor and saves it as queries/<name>.sql. */
export function SaveQueryForm({
  onSave,
  onCancel,
}: {
  onSave(name: string): Promise<AppError | undefined>;
  onCancel(): void;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<AppError | undefined>();
  return (
    <form
      className="sql-save"
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim()) void onSave(name.trim()).then(setError);
      }}
    >
      <label>
        Save as
        <input
          autoFocus
          value={name}
          maxLength={120}
          placeholder="Revenue per customer"
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <Button type="submit" variant="primary" size="sm" disabled={!name.trim()}>
        Save
      </Button>
      <Button size="sm" variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
      <span className="sql-faint">
        Saved as a .sql file in the connection’s queries folder, ready to share.
      </span>
      {error ? <ErrorMessage error={error} compact /> : null}
    </form>
  );
}
