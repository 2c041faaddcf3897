import { create } from 'zustand';
import type { AppError, ReadLimit, SchemaReport, SchemaScanSummary } from '../../../shared/ipc';
import { call, newRequestId } from '../../ipc/client';

/** A table, or one of its indexes, on a connection: what one Schema view reads. */
export interface SchemaTarget {
  connectionId: string;
  table: string;
  index?: string;
}

export interface SchemaStartOptions {
  mode: 'sample' | 'full';
  sampleSize?: number;
  segments?: number;
  limit?: ReadLimit;
  typeAttribute?: string;
  resumeScanId?: string;
}

export interface SchemaViewState {
  scans: SchemaScanSummary[];
  report?: SchemaReport;
  requestId?: string;
  error?: AppError;
  /** '' shows all items; otherwise an entity's name. */
  entity: string;
  /** The path whose details are open. */
  path?: string;
}

interface SchemaStore {
  views: Record<string, SchemaViewState>;
  load(target: SchemaTarget): Promise<void>;
  start(target: SchemaTarget, options: SchemaStartOptions): Promise<void>;
  openReport(target: SchemaTarget, scanId: string): Promise<void>;
  /** After the read's operation ended: its report (done) or what it read so far. */
  settle(target: SchemaTarget, scanId: string | undefined, error?: AppError): Promise<void>;
  select(target: SchemaTarget, patch: Partial<Pick<SchemaViewState, 'entity' | 'path'>>): void;
}

export const schemaKey = (t: SchemaTarget) => `${t.connectionId}\u0000${t.table}\u0000${t.index ?? ''}`;
const empty: SchemaViewState = { scans: [], entity: '' };

export const useSchemaStore = create<SchemaStore>()((set, get) => {
  const patch = (target: SchemaTarget, next: Partial<SchemaViewState>) =>
    set((state) => {
      const key = schemaKey(target);
      return { views: { ...state.views, [key]: { ...empty, ...state.views[key], ...next } } };
    });
  const current = (target: SchemaTarget) => get().views[schemaKey(target)] ?? empty;
  const ref = (t: SchemaTarget) => ({
    connectionId: t.connectionId,
    table: t.table,
    ...(t.index ? { index: t.index } : {}),
  });

  return {
    views: {},

    async load(target) {
      const envelope = await call('schema:scans', ref(target));
      if (!envelope.ok) {
        patch(target, { error: envelope.error });
        return;
      }
      patch(target, { scans: envelope.value });
      const state = current(target);
      const running = envelope.value.find((s) => s.state === 'running' && s.requestId);
      if (running && !state.requestId) {
        patch(target, { requestId: running.requestId });
        return;
      }
      const latest = envelope.value.find((s) => s.state === 'done');
      if (!state.report && latest) await get().openReport(target, latest.scanId);
    },

    async start(target, options) {
      const requestId = newRequestId('schema');
      patch(target, { requestId, error: undefined });
      const envelope = await call('schema:analyze', { ...ref(target), requestId, ...options });
      if (!envelope.ok) patch(target, { requestId: undefined, error: envelope.error });
    },

    async openReport(target, scanId) {
      const envelope = await call('schema:report', { scanId });
      if (!envelope.ok) {
        patch(target, { error: envelope.error });
        return;
      }
      const report = envelope.value;
      const entity = current(target).entity;
      patch(target, {
        report,
        error: undefined,
        // Keep the entity in view when the new read found it too.
        entity: report.entities.some((e) => e.name === entity) ? entity : '',
      });
    },

    async settle(target, scanId, error) {
      patch(target, { requestId: undefined, ...(error ? { error } : {}) });
      const scans = await call('schema:scans', ref(target));
      if (scans.ok) patch(target, { scans: scans.value });
      const summary = scans.ok ? scans.value.find((s) => s.scanId === scanId) : undefined;
      // A stopped sample kept nothing; a stopped full scan reports what it read so far.
      if (scanId && (summary?.state === 'done' || summary?.mode === 'full')) {
        await get().openReport(target, scanId);
        if (error) patch(target, { error });
      }
    },

    select(target, next) {
      patch(target, next);
    },
  };
});

export function useSchemaView(target: SchemaTarget): SchemaViewState {
  return useSchemaStore((state) => state.views[schemaKey(target)] ?? empty);
}
