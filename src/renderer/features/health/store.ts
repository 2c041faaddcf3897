import { create } from 'zustand';
import type { AppError } from '../../../shared/ipc';
import type { HealthReport, HealthWindow } from '../../../shared/ipc/health';
import { call, newRequestId } from '../../ipc/client';
import { startLongWork } from '../operations/long-work';

export interface HealthView {
  requestId?: string;
  report?: HealthReport;
  error?: AppError;
}

interface HealthStore {
  /** By `connectionId\u0000table`: a report stays while the user looks at other tabs. */
  views: Record<string, HealthView>;
  check(connectionId: string, table: string, mode: 'sample' | 'full', window: HealthWindow): Promise<void>;
  /** The table's last report from disk (kept across restarts), once per table while the app runs. */
  loadLast(connectionId: string, table: string): Promise<void>;
}

export const healthKey = (connectionId: string, table: string) => `${connectionId}\u0000${table}`;

export const useHealthStore = create<HealthStore>()((set) => {
  const patch = (key: string, view: HealthView) =>
    set((state) => ({ views: { ...state.views, [key]: view } }));
  return {
    views: {},
    async loadLast(connectionId, table) {
      const key = healthKey(connectionId, table);
      if (useHealthStore.getState().views[key]) return;
      patch(key, {});
      const last = await call('health:latest', { connectionId, table });
      // A check started meanwhile wins over the file.
      const now = useHealthStore.getState().views[key];
      if (now?.requestId || now?.report) return;
      if (!last.ok) patch(key, { error: last.error });
      else if (last.value) patch(key, { report: last.value });
    },
    async check(connectionId, table, mode, window) {
      const key = healthKey(connectionId, table);
      const requestId = newRequestId('health');
      const kept = () => ({ report: useHealthStore.getState().views[key]?.report });
      patch(key, { requestId, ...kept() });
      await startLongWork(
        'health:analyze',
        { connectionId, table, mode, window },
        {
          requestId,
          onEnd: (ending) => {
            if (ending.type === 'failed')
              patch(key, ending.isRefused ? { error: ending.error } : { error: ending.error, ...kept() });
            else if (ending.type === 'cancelled') patch(key, kept());
            else if (ending.value)
              void call('health:report', { reportId: ending.value.reportId }).then((envelope) =>
                patch(key, envelope.ok ? { report: envelope.value } : { error: envelope.error }),
              );
          },
        },
      ).started;
    },
  };
});

export function useHealthView(connectionId: string, table: string): HealthView {
  return useHealthStore((state) => state.views[healthKey(connectionId, table)]) ?? {};
}
