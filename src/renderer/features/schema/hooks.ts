import { useEffect } from 'react';
import type { OperationEvent } from '../../../shared/ipc';
import { doneValueOf, onOperation } from '../operations/store';
import { type SchemaTarget, useSchemaStore } from './store';

function scanIdOf(event: OperationEvent): string | undefined {
  if (event.type === 'done') return doneValueOf('schema:analyze', event.value)?.scanId;
  return event.type === 'cancelled' || event.type === 'error' ? event.cursor : undefined;
}

/**
 * Settles the view when its read ends (done, cancelled or error), also one that ended before
 * this component subscribed (the operations store keeps the last event).
 */
export function useSettleSchemaRead(target: SchemaTarget, requestId: string | undefined): void {
  const { connectionId, table, index } = target;
  useEffect(() => {
    if (!requestId) return;
    const settle = (event: OperationEvent) => {
      if (event.type !== 'done' && event.type !== 'cancelled' && event.type !== 'error') return;
      void useSchemaStore
        .getState()
        .settle(
          { connectionId, table, index },
          scanIdOf(event),
          event.type === 'error' ? event.error : undefined,
        );
    };
    return onOperation(requestId, settle);
  }, [connectionId, table, index, requestId]);
}
