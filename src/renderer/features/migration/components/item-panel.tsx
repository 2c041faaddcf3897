import { useEffect, useState } from 'react';
import type { AppError, Item, KeySchema, PlainKey } from '../../../../shared/ipc';
import { call } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { keyLabel, taggedKey } from '../keys';

/**
 * The sample item's full JSON, read fresh (consistent) so it shows what is stored now. Until the
 * item editor lands this is where a sample opens; it needs only items:get.
 */
export function ItemPanel(props: {
  connectionId: string;
  table: string;
  keys: KeySchema;
  itemKey: PlainKey;
  onClose(): void;
}) {
  const { connectionId, table, keys, itemKey, onClose } = props;
  const id = JSON.stringify(itemKey);
  // The answer remembers which key it is for, so a newer click never shows an older item.
  const [answer, setAnswer] = useState<{ id: string; item?: Item | null; error?: AppError }>();
  useEffect(() => {
    let isCurrent = true;
    void call('items:get', { connectionId, table, key: taggedKey(itemKey, keys), consistent: true }).then(
      (envelope) => {
        if (!isCurrent) return;
        setAnswer(envelope.ok ? { id, item: envelope.value.item } : { id, error: envelope.error });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [connectionId, table, keys, itemKey, id]);
  const state: { item?: Item | null; error?: AppError } = answer?.id === id ? answer : {};

  return (
    <aside className="mig-item-panel" aria-label="Sample item">
      <header className="mig-item-header">
        <h3>{keyLabel(itemKey)}</h3>
        <Button size="sm" variant="ghost" onClick={onClose} aria-label="Close the item">
          Close
        </Button>
      </header>
      {state.error ? <ErrorMessage compact error={state.error} connectionId={connectionId} /> : null}
      {state.item === null ? <p className="muted">This item no longer exists.</p> : null}
      {state.item ? (
        <pre className="code-block mig-item-json">{JSON.stringify(state.item, null, 2)}</pre>
      ) : null}
      {state.item === undefined && !state.error ? <p className="muted">Loading…</p> : null}
    </aside>
  );
}
