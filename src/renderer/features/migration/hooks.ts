import { useEffect } from 'react';
import type { OperationEvent } from '../../../shared/ipc';
import { onOperation } from '../operations/store';
import { useMigrationStore } from './store';

/**
 * Settles the page when one of its operations ends (done, cancelled or error), including one
 * that ended before this component subscribed (the operations store keeps the last event).
 */
export function useSettleOnEnd(
  connectionId: string,
  table: string,
  requestId: string | undefined,
  kind: 'scan' | 'plan' | 'run',
): void {
  useEffect(() => {
    if (!requestId) return;
    const settle = (event: OperationEvent) => {
      if (event.type !== 'done' && event.type !== 'cancelled' && event.type !== 'error') return;
      void useMigrationStore
        .getState()
        .settle(connectionId, table, kind, event.type === 'done' ? event.value : undefined);
      if (event.type === 'error') {
        const error = event.error;
        useMigrationStore.setState((state) => {
          const key = `${connectionId}\u0000${table}`;
          const entry = state.tables[key];
          return entry ? { tables: { ...state.tables, [key]: { ...entry, error } } } : state;
        });
      }
    };
    return onOperation(requestId, settle);
  }, [connectionId, table, requestId, kind]);
}
