import type { AppError } from '../../../shared/errors';
import type { Progress } from '../../../shared/ipc/operations';
import type { EntityView, ExportTable } from '../../../shared/sql/catalog';
import type { ReadBudgetLimits } from '../fetch/read-budget';
import type { ExternalRows } from '../results/external-result';
import type { ScanLimits } from '../scan-limit';

/**
 * How the worker reaches DynamoDB for a connection: region and endpoint from main's client,
 * credentials asked of main when needed (they never leave the process, and refreshing
 * providers — SSO, assume-role — keep refreshing in main). `version` changes when main builds
 * a new client (connection edited, signed in again), so the worker rebuilds its own.
 */
export interface ConnectionDescription {
  id: string;
  region: string;
  endpoint?: string;
  version: number;
}

/**
 * An opened export SQL may read as `FROM export."…"`: where its files are, and for S3 the
 * connection to read them as (the worker builds an S3 client like its DynamoDB ones).
 */
export interface SqlExportRef extends ExportTable {
  location:
    | { kind: 's3'; connection: ConnectionDescription; bucket: string; prefix: string }
    | { kind: 'folder'; path: string };
}

export interface WireCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** Epoch milliseconds. */
  expiration?: number;
}

export type SqlCall =
  | {
      op: 'plan';
      connection: ConnectionDescription;
      sql: string;
      views: EntityView[];
      exports?: SqlExportRef[];
      maxItems?: number;
      scanLimit?: ScanLimits;
    }
  | {
      op: 'run';
      connection: ConnectionDescription;
      sql: string;
      views: EntityView[];
      exports?: SqlExportRef[];
      refresh?: boolean;
      maxItems?: number;
      budget?: ReadBudgetLimits;
      scanLimit?: ScanLimits | 'local';
    }
  | {
      op: 'catalog';
      connection: ConnectionDescription;
      views: EntityView[];
      exports?: SqlExportRef[];
      refresh?: boolean;
    }
  | { op: 'window'; resultId: string; offset: number; limit: number }
  | { op: 'drop'; resultId: string }
  | { op: 'addRows'; rows: ExternalRows }
  | { op: 'cacheList'; connectionId: string }
  | { op: 'cacheClear'; connectionId: string; table?: string }
  | { op: 'tableChanged'; connectionId: string; table: string };

export type ToWorker =
  | { kind: 'call'; id: number; call: SqlCall }
  | { kind: 'cancel'; id: number }
  | { kind: 'credentials'; id: number; ok: true; credentials: WireCredentials }
  | { kind: 'credentials'; id: number; ok: false; error: AppError };

export type FromWorker =
  | { kind: 'result'; id: number; ok: true; value: unknown }
  | { kind: 'result'; id: number; ok: false; error: AppError }
  | { kind: 'progress'; id: number; progress: Progress }
  | { kind: 'needCredentials'; id: number; connectionId: string }
  /** A line for main's log (a defect the user need not see: the warm-up's failure). */
  | { kind: 'log'; message: string };
