import { useFollowLongWork } from '../operations/use-long-work';
import { type SchemaTarget, useSchemaStore } from './store';

/**
 * Settles the view when its read ends (done, cancelled or error), also one that ended before
 * this component subscribed (the operations store keeps the last event).
 */
export function useSettleSchemaRead(target: SchemaTarget, requestId: string | undefined): void {
  const { connectionId, table, index } = target;
  useFollowLongWork('schema:analyze', requestId, (ending) => {
    // A stopped read names its scan by the cursor it ended with.
    const scanId = ending.type === 'done' ? ending.value?.scanId : ending.cursor;
    void useSchemaStore
      .getState()
      .settle({ connectionId, table, index }, scanId, ending.type === 'failed' ? ending.error : undefined);
  });
}
