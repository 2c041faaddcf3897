import type { Item } from '../../shared/dynamo/attribute-value';
import type { AppError } from '../../shared/errors';
import type { ViewSpec } from '../../shared/ipc/query';
import type { CollapseChange, ExportChange, ResultSetMeta, WriteBatch } from './types';

/** Messages between store.ts (main) and worker.ts. Every request carries an id its response echoes. */
export type WorkerRequest =
  | { id: number; op: 'create'; meta: ResultSetMeta }
  | { id: number; op: 'append'; resultSetId: string; items: Item[] }
  | {
      id: number;
      op: 'window';
      resultSetId: string;
      offset: number;
      limit: number;
      viewId?: string;
      itemsOnly?: boolean;
    }
  | { id: number; op: 'view'; resultSetId: string; spec: ViewSpec; name?: string; revision?: number }
  | { id: number; op: 'collections'; resultSetId: string; viewId: string; change?: CollapseChange }
  | { id: number; op: 'appendWire'; resultSetId: string; body: Uint8Array }
  | { id: number; op: 'appendExportLines'; resultSetId: string; body: Uint8Array }
  | { id: number; op: 'applyExportChanges'; resultSetId: string; changes: ExportChange[] }
  | { id: number; op: 'applyWrites'; batch: WriteBatch }
  | { id: number; op: 'drop'; resultSetId: string }
  | { id: number; op: 'stats' };

export type WorkerResponse = (
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: AppError }
) & {
  /** An appendWire body's buffer, moved back for the next page (see store.ts's spare buffers). */
  spare?: ArrayBuffer;
};
