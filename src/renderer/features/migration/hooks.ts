import type { AppError } from '../../../shared/ipc';
import { useFollowLongWork } from '../operations/use-long-work';
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
  const showError = (error: AppError | undefined): void => {
    if (!error) return;
    useMigrationStore.setState((state) => {
      const key = `${connectionId}\u0000${table}`;
      const entry = state.tables[key];
      return entry ? { tables: { ...state.tables, [key]: { ...entry, error } } } : state;
    });
  };
  const { settle } = useMigrationStore.getState();
  useFollowLongWork('migration:scan', kind === 'scan' ? requestId : undefined, (ending) => {
    void settle(connectionId, table, {
      kind: 'scan',
      scanId: ending.type === 'done' ? ending.value?.scanId : undefined,
    });
    showError(ending.type === 'failed' ? ending.error : undefined);
  });
  useFollowLongWork('migration:fixPlan', kind === 'plan' ? requestId : undefined, (ending) => {
    void settle(connectionId, table, {
      kind: 'plan',
      plan: ending.type === 'done' ? ending.value : undefined,
    });
    showError(ending.type === 'failed' ? ending.error : undefined);
  });
  useFollowLongWork('migration:fixRun', kind === 'run' ? requestId : undefined, (ending) => {
    void settle(connectionId, table, { kind: 'run' });
    showError(ending.type === 'failed' ? ending.error : undefined);
  });
}
