import type { exportChannels } from './exports';
import type { ChannelExample } from './examples';

type ExportExamples = { [C in keyof typeof exportChannels]: ChannelExample<C> };

const tableArn = 'arn:aws:dynamodb:eu-west-1:123456789012:table/Orders';
const exportArn = `${tableArn}/export/01764633600000-3fa29c01`;
const completed = {
  exportArn,
  status: 'COMPLETED' as const,
  type: 'FULL_EXPORT' as const,
  bucket: 'acme-backups',
  prefix: 'orders',
  manifest: 'orders/AWSDynamoDB/01764633600000-3fa29c01/manifest-summary.json',
  itemCount: 182_340,
  billedSizeBytes: 96_212_480,
  startTime: '2026-12-01T02:00:00.000Z',
  endTime: '2026-12-01T02:09:41.000Z',
};
const unavailable =
  'On DynamoDB Local (no PITR, no exports) this answers ExportsUnavailable with a sentence that offers Copy instead.';

/** docs/API.md examples for S3 exports and imports. */
export const exportExamples: ExportExamples = {
  'exports:list': {
    summary: "The table's point-in-time recovery state and its past exports, newest last.",
    input: { connectionId: 'prod-eu', table: 'Orders' },
    output: {
      pitr: { status: 'ENABLED', earliest: '2026-10-27T00:00:00.000Z', latest: '2026-12-01T09:55:00.000Z' },
      exports: [completed],
    },
    notes: `Reads only (ListExports, DescribeExport, DescribeContinuousBackups): allowed on read-only connections. ${unavailable}`,
  },
  'exports:enablePitr': {
    summary: 'Turns on point-in-time recovery, which every export needs; DynamoDB bills it per GB-month.',
    input: { connectionId: 'prod-eu', table: 'Orders' },
    output: { status: 'ENABLED', earliest: '2026-12-01T09:56:00.000Z', latest: '2026-12-01T09:56:00.000Z' },
    notes: 'A write: refused in main with ReadOnlyConnection on a read-only connection.',
  },
  'exports:start': {
    summary:
      'Starts a full or incremental export of the table to S3 and follows it until it completes or fails. No read capacity is used.',
    input: {
      connectionId: 'prod-eu',
      table: 'Orders',
      requestId: 'export_9Xk2PqRt',
      bucket: 'acme-backups',
      prefix: 'orders',
      format: 'DYNAMODB_JSON',
    },
    output: { started: true, exportArn },
    notes: `Refused before anything is sent with ReadOnlyConnection on a read-only connection; PointInTimeRecoveryUnavailableException when PITR is off (exports:enablePitr turns it on). Progress events carry the status in progress.message (and itemCount in progress.items once known); done.value is the ExportState {exportArn, status, itemCount, billedSizeBytes, manifest, …}. A cancel stops following only: the export goes on in AWS. ${unavailable}`,
  },
  'exports:follow': {
    summary: 'Follows an export that is still running (listed IN_PROGRESS) until it completes or fails.',
    input: { connectionId: 'prod-eu', requestId: 'export_b7Lw3NzQ', exportArn },
    output: { started: true },
    notes: 'The same events as exports:start.',
  },
  'exports:open': {
    summary:
      'Opens a DynamoDB-JSON export in S3 as a read-only result set: data files are streamed from S3, decompressed and encoded in the result-set worker; the table is not read.',
    input: {
      connectionId: 'prod-eu',
      requestId: 'open_Q8r2LmXa',
      bucket: 'acme-backups',
      prefix: 'orders',
    },
    output: { started: true },
    notes:
      'Progress events carry items so far and progress.fraction (data files read); done.value is an OpenedExport {resultSetId, name, table, exportArn, exportTime, items, keyAttributes, incrementals}, which resultsets:window reads and SQL names as export."<name>". A prefix holding several exports opens the newest full one with every later incremental export of the same table applied on top; exportId picks another. Ion exports are refused with UnsupportedExportFormat.',
  },
  'exports:openFolder': {
    summary:
      "Opens a DynamoDB-JSON export in a local folder (the export's own folder, or one holding AWSDynamoDB/<export id>/) as a read-only result set: the desktop's chosen folder (folderId) or browser mode's uploaded one (uploadId).",
    input: { connectionId: 'prod-eu', requestId: 'open_Lp4sWq7Z', folderId: 'f_Zk3pQm9wXr2LtY8vN1cA' },
    output: { started: true },
    notes:
      'folderId is the handle files:choose {purpose: "openExport"} answered after the system\'s folder dialog; no path is sent. The same events and done.value as exports:open; SQL reads the folder again for FROM export."<name>". Browser mode has no folder dialog: the page sends each file of the picked folder (manifest-summary.json, manifest-files.json, data/*.gz; at the top or under AWSDynamoDB/<export id>/) as raw bytes to POST /api/upload/export-folder?name=<that name>, the first answer\'s uploadId passed as &upload= with the rest, and opens it with {uploadId} instead of folderId (the copy is kept a day; DELETE with ?upload= removes it). A data file the manifest names but the folder lacks ends the opening in FileNotFound naming it.',
  },
  'exports:opened': {
    summary: 'The exports opened in this session, which SQL can read as export."<name or ARN>".',
    input: {},
    output: [
      {
        resultSetId: 'rs_4',
        name: 'Orders-2026-12-01',
        table: 'Orders',
        exportArn,
        exportTime: '2026-12-01T02:00:00.000Z',
        items: 182_340,
        keyAttributes: ['PK', 'SK'],
        incrementals: [],
      },
    ],
  },
  'imports:start': {
    summary:
      'Starts ImportTable: DynamoDB creates a new table and loads the S3 objects under the prefix into it (no write capacity is used), followed until it completes or fails.',
    input: {
      connectionId: 'staging-eu',
      requestId: 'import_Zp3kWq7N',
      bucket: 'acme-backups',
      prefix: 'orders/AWSDynamoDB/01764633600000-3fa29c01/data/',
      format: 'DYNAMODB_JSON',
      compression: 'GZIP',
      table: 'Orders-restored',
      partitionKey: { name: 'PK', type: 'S' },
      sortKey: { name: 'SK', type: 'S' },
    },
    output: {
      started: true,
      importArn:
        'arn:aws:dynamodb:eu-west-1:123456789012:table/Orders-restored/import/01764640000000-a1b2c3d4',
    },
    notes: `Refused with ReadOnlyConnection on a read-only connection, ResourceInUseException when the table exists. Progress events carry importedItems in progress.items; done.value is the ImportState {importArn, status, table, processedItems, importedItems, errors, processedBytes, failure}. ${unavailable}`,
  },
};
