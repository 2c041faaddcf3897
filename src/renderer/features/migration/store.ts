import { create } from 'zustand';
import type {
  Acknowledgement,
  AppError,
  DateStorage,
  FixPlanSummary,
  FixPolicy,
  FixResult,
  MigrationReport,
  OrmModel,
  ReadLimit,
  ScanSummary,
} from '../../../shared/ipc';
import type { KeptDynamooseFile } from '../../../shared/ipc/migration-dynamoose';
import { call, newRequestId } from '../../ipc/client';

/** How one of the page's operations ended, with what its done value names. */
export type MigrationEnded =
  { kind: 'scan'; scanId?: string } | { kind: 'plan'; plan?: FixPlanSummary } | { kind: 'run' };

/** What one table's pre-flight page shows; keyed by connection + table. */
export interface MigrationTableState {
  scans: ScanSummary[];
  /** The scan whose report is open. */
  selectedScanId?: string;
  report?: MigrationReport;
  /** The running scan's request (its progress comes from the operations store). */
  scanRequestId?: string;
  planRequestId?: string;
  plan?: FixPlanSummary;
  runRequestId?: string;
  result?: FixResult;
  /** The model settings acknowledged for the table, and the expectations file that holds them. */
  acknowledgements?: { list: Acknowledgement[]; file: string; content: string };
  /** The dynotable-orm model file the verdicts count (null: none); undefined until loaded. */
  model?: OrmModel | null;
  /** Why the last model file given was refused (the one in use, if any, stays). */
  modelError?: AppError;
  /** The dynamoose schema file the table's scans check the items against (null: none). */
  dynamoose?: KeptDynamooseFile | null;
  /** Why the last dynamoose schema file given was refused (the one in use, if any, stays). */
  dynamooseError?: AppError;
  error?: AppError;
}

/** A chosen file's handle (desktop) or the text the page read (browser mode). */
export type ModelSource = { fileId: string } | { name: string; text: string };

/** What the rewrites of older releases' data the fix makes: `fix-migration --bool-path` and friends. */
export interface FixRewrites {
  booleanPaths?: string[];
  documentPaths?: string[];
  ttlToSeconds?: boolean;
  setToListPaths?: string[];
  listToSetPaths?: string[];
}

interface MigrationStore {
  tables: Record<string, MigrationTableState>;
  loadScans(connectionId: string, table: string): Promise<void>;
  startScan(
    connectionId: string,
    table: string,
    options: { segments: number; limit?: ReadLimit; resumeScanId?: string },
  ): Promise<void>;
  openReport(connectionId: string, table: string, scanId: string): Promise<void>;
  startPlan(
    connectionId: string,
    table: string,
    options: { policy: FixPolicy; convertDates: boolean; segments: number } & FixRewrites,
  ): Promise<void>;
  startRun(connectionId: string, table: string, options: { writesPerSecond: number }): Promise<void>;
  /** After an operation ends: refresh what it changed. */
  settle(connectionId: string, table: string, ended: MigrationEnded): Promise<void>;
  clearError(connectionId: string, table: string): void;
  loadAcknowledgements(connectionId: string, table: string): Promise<void>;
  /** Acknowledges (or, with storage undefined, withdraws) a setting; true once it is saved. */
  acknowledge(
    connectionId: string,
    table: string,
    setting: { path: string; storage?: DateStorage; reason?: string },
  ): Promise<boolean>;
  loadModel(connectionId: string, table: string): Promise<void>;
  /** Uses a model file for the table's verdicts; undefined source removes it. */
  setModel(connectionId: string, table: string, source: ModelSource | undefined): Promise<void>;
  /** A model file refused before it reached main (too large, unreadable). */
  refuseModel(connectionId: string, table: string, error: AppError | undefined): void;
  loadDynamoose(connectionId: string, table: string): Promise<void>;
  /** Uses a dynamoose schema file for the table's next scans; undefined source removes it. */
  setDynamoose(connectionId: string, table: string, source: ModelSource | undefined): Promise<void>;
  refuseDynamoose(connectionId: string, table: string, error: AppError | undefined): void;
}

export const migrationKey = (connectionId: string, table: string) => `${connectionId}\u0000${table}`;

export const useMigrationStore = create<MigrationStore>()((set, get) => {
  const patch = (connectionId: string, table: string, next: Partial<MigrationTableState>) =>
    set((state) => {
      const key = migrationKey(connectionId, table);
      return { tables: { ...state.tables, [key]: { scans: [], ...state.tables[key], ...next } } };
    });
  const current = (connectionId: string, table: string): MigrationTableState =>
    get().tables[migrationKey(connectionId, table)] ?? { scans: [] };

  // main counts acknowledgements and the model file in every verdict: read the list and the
  // open report again.
  const restated = async (connectionId: string, table: string) => {
    const scanId = current(connectionId, table).selectedScanId;
    await get().loadScans(connectionId, table);
    if (scanId) await get().openReport(connectionId, table, scanId);
  };

  return {
    tables: {},

    async loadScans(connectionId, table) {
      const envelope = await call('migration:scans', { connectionId, table });
      if (!envelope.ok) {
        patch(connectionId, table, { error: envelope.error });
        return;
      }
      patch(connectionId, table, { scans: envelope.value });
      const state = current(connectionId, table);
      // A scan still running (started before a reload, or in another window): follow its events.
      const running = envelope.value.find((s) => s.state === 'running' && s.requestId);
      if (running && !state.scanRequestId) {
        patch(connectionId, table, { scanRequestId: running.requestId, selectedScanId: running.scanId });
        return;
      }
      const latest = envelope.value[0];
      if (!state.selectedScanId && latest && latest.state !== 'running')
        await get().openReport(connectionId, table, latest.scanId);
    },

    async startScan(connectionId, table, options) {
      const requestId = newRequestId('mig');
      patch(connectionId, table, { scanRequestId: requestId, error: undefined });
      const envelope = await call('migration:scan', { connectionId, table, requestId, ...options });
      if (!envelope.ok) {
        patch(connectionId, table, { scanRequestId: undefined, error: envelope.error });
        return;
      }
      // A small table's scan can end before this answer arrives: settle() has then opened its
      // report already, and clearing it here would leave the page without one.
      if (current(connectionId, table).scanRequestId !== requestId) return;
      patch(connectionId, table, { selectedScanId: envelope.value.scanId, report: undefined });
      await get().loadScans(connectionId, table);
    },

    async openReport(connectionId, table, scanId) {
      patch(connectionId, table, { selectedScanId: scanId });
      const envelope = await call('migration:report', { scanId });
      if (current(connectionId, table).selectedScanId !== scanId) return;
      if (envelope.ok) patch(connectionId, table, { report: envelope.value, error: undefined });
      else patch(connectionId, table, { report: undefined, error: envelope.error });
    },

    async startPlan(connectionId, table, options) {
      const requestId = newRequestId('plan');
      patch(connectionId, table, {
        planRequestId: requestId,
        plan: undefined,
        result: undefined,
        error: undefined,
      });
      const envelope = await call('migration:fixPlan', { connectionId, table, requestId, ...options });
      if (!envelope.ok) patch(connectionId, table, { planRequestId: undefined, error: envelope.error });
    },

    async startRun(connectionId, table, options) {
      const plan = current(connectionId, table).plan;
      if (!plan) return;
      const requestId = newRequestId('fix');
      patch(connectionId, table, { runRequestId: requestId, error: undefined });
      const envelope = await call('migration:fixRun', {
        connectionId,
        requestId,
        planId: plan.planId,
        ...options,
      });
      if (!envelope.ok) patch(connectionId, table, { runRequestId: undefined, error: envelope.error });
    },

    async settle(connectionId, table, ended) {
      if (ended.kind === 'scan') {
        // The done event names its scan; selectedScanId may still name the previous one when the
        // scan ended before its start call answered.
        const scanId = ended.scanId ?? current(connectionId, table).selectedScanId;
        patch(connectionId, table, { scanRequestId: undefined, selectedScanId: scanId });
        await get().loadScans(connectionId, table);
        if (scanId) await get().openReport(connectionId, table, scanId);
      } else if (ended.kind === 'plan') {
        const { plan } = ended;
        patch(connectionId, table, { planRequestId: undefined, ...(plan ? { plan } : {}) });
      } else {
        const plan = current(connectionId, table).plan;
        patch(connectionId, table, { runRequestId: undefined });
        if (!plan) return;
        const envelope = await call('migration:fixStatus', { planId: plan.planId });
        if (envelope.ok) patch(connectionId, table, { result: envelope.value.result ?? undefined });
      }
    },

    clearError(connectionId, table) {
      patch(connectionId, table, { error: undefined });
    },

    async loadAcknowledgements(connectionId, table) {
      const envelope = await call('migration:acknowledgements', { connectionId, table });
      if (!envelope.ok) patch(connectionId, table, { error: envelope.error });
      else
        patch(connectionId, table, {
          acknowledgements: { ...envelope.value, list: envelope.value.acknowledgements },
        });
    },

    async acknowledge(connectionId, table, { path, storage, reason }) {
      const envelope =
        storage === undefined
          ? await call('migration:withdrawAcknowledgement', { connectionId, table, path })
          : await call('migration:acknowledge', {
              connectionId,
              table,
              path,
              storage,
              reason: reason ?? '',
            });
      if (!envelope.ok) {
        patch(connectionId, table, { error: envelope.error });
        return false;
      }
      patch(connectionId, table, {
        acknowledgements: { ...envelope.value, list: envelope.value.acknowledgements },
        error: undefined,
      });
      await restated(connectionId, table);
      return true;
    },

    async loadModel(connectionId, table) {
      const envelope = await call('migration:model', { connectionId, table });
      if (envelope.ok) patch(connectionId, table, { model: envelope.value.model });
      else patch(connectionId, table, { modelError: envelope.error });
    },

    async setModel(connectionId, table, source) {
      const envelope = source
        ? await call('migration:useModel', { connectionId, table, source })
        : await call('migration:removeModel', { connectionId, table });
      if (!envelope.ok) {
        patch(connectionId, table, { modelError: envelope.error });
        return;
      }
      patch(connectionId, table, { model: envelope.value.model, modelError: undefined });
      await restated(connectionId, table);
    },

    refuseModel(connectionId, table, error) {
      patch(connectionId, table, { modelError: error });
    },

    async loadDynamoose(connectionId, table) {
      const envelope = await call('migration:dynamoose', { connectionId, table });
      if (envelope.ok) patch(connectionId, table, { dynamoose: envelope.value.dynamoose });
      else patch(connectionId, table, { dynamooseError: envelope.error });
    },

    async setDynamoose(connectionId, table, source) {
      // Nothing to restate: the file changes what the next scan checks, not the verdicts so far.
      const envelope = source
        ? await call('migration:useDynamoose', { connectionId, table, source })
        : await call('migration:removeDynamoose', { connectionId, table });
      if (envelope.ok)
        patch(connectionId, table, { dynamoose: envelope.value.dynamoose, dynamooseError: undefined });
      else patch(connectionId, table, { dynamooseError: envelope.error });
    },

    refuseDynamoose(connectionId, table, error) {
      patch(connectionId, table, { dynamooseError: error });
    },
  };
});

const empty: MigrationTableState = { scans: [] };
export function useMigrationTable(connectionId: string, table: string): MigrationTableState {
  return useMigrationStore((state) => state.tables[migrationKey(connectionId, table)] ?? empty);
}
