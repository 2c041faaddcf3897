import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';

/** Items as DynamoDB's wire JSON (binary as base64 text), the form the export files hold. */
export interface WireValue {
  S?: string;
  N?: string;
  B?: string;
  BOOL?: boolean;
  NULL?: boolean;
  L?: WireValue[];
  M?: WireItem;
  SS?: string[];
  NS?: string[];
  BS?: string[];
}
export type WireItem = Record<string, WireValue>;
type Item = WireItem;

/** One line of an incremental export, as the developer guide documents it. */
export interface ChangeRecord {
  keys: Item;
  newImage?: Item;
  oldImage?: Item;
  writeMicros: bigint;
}

export interface LayoutSummary {
  exportArn: string;
  tableArn: string;
  tableId: string;
  startTime: Date;
  exportTime: Date;
  s3Bucket: string;
  s3Prefix: string | undefined;
  format: 'DYNAMODB_JSON' | 'ION';
  incremental?: { from: Date; to: Date; view: 'NEW_IMAGE' | 'NEW_AND_OLD_IMAGES' };
}

export interface WrittenExport {
  manifestSummaryKey: string;
  itemCount: number;
  billedSizeBytes: number;
}

const DATA_FILES = 4;

function ionValue(value: WireValue): string {
  if (value.S !== undefined) return JSON.stringify(value.S);
  if (value.N !== undefined) return ionDecimal(value.N);
  if (value.B !== undefined) return `{{${value.B}}}`;
  if (value.BOOL !== undefined) return value.BOOL ? 'true' : 'false';
  if (value.NULL !== undefined) return 'null';
  if (value.L !== undefined) return `[${value.L.map(ionValue).join(',')}]`;
  if (value.M !== undefined) return ionStruct(value.M);
  if (value.SS !== undefined) return `$dynamodb_SS::[${value.SS.map((s) => JSON.stringify(s)).join(',')}]`;
  if (value.NS !== undefined) return `$dynamodb_NS::[${value.NS.map(ionDecimal).join(',')}]`;
  if (value.BS !== undefined) return `$dynamodb_BS::[${value.BS.map((b) => `{{${b}}}`).join(',')}]`;
  throw new Error('unknown attribute value');
}

/**
 * Ion decimals as the developer guide's Ion export shows them: an exponent written with d
 * (`2d3`), a whole number with a trailing point (`103.`; 103 alone would be an Ion int).
 */
function ionDecimal(n: string): string {
  if (/[eE]/.test(n)) return n.replace(/[eE]/, 'd');
  return n.includes('.') ? n : `${n}.`;
}

/** A field name as an Ion symbol: bare when it is an identifier (`Authors`), else quoted (`'a.b'`). */
function ionSymbol(name: string): string {
  if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) && !['true', 'false', 'null', 'nan'].includes(name))
    return name;
  return `'${JSON.stringify(name).slice(1, -1).replace(/'/g, "\\'")}'`;
}

function ionStruct(map: Item): string {
  return `{${Object.keys(map)
    .map((name) => `${ionSymbol(name)}:${ionValue(map[name]!)}`)
    .join(',')}}`;
}

/** One line of a full export's data file: `{"Item":{...}}`, or `$ion_1_0 {Item:{...}}` in Ion. */
export function fullLine(item: Item, format: LayoutSummary['format']): string {
  if (format === 'ION') return `$ion_1_0 {Item:${ionStruct(item)}}`;
  return JSON.stringify({ Item: item });
}

function changeLine(change: ChangeRecord, format: LayoutSummary['format']): string {
  if (format === 'ION') {
    const parts = [`Metadata:{WriteTimestampMicros:${change.writeMicros}}`, `Keys:${ionStruct(change.keys)}`];
    if (change.newImage) parts.push(`NewImage:${ionStruct(change.newImage)}`);
    if (change.oldImage) parts.push(`OldImage:${ionStruct(change.oldImage)}`);
    return `$ion_1_0 {${parts.join(',')}}`;
  }
  const record: Record<string, unknown> = {
    Metadata: { WriteTimestampMicros: { N: change.writeMicros.toString() } },
    Keys: change.keys,
  };
  if (change.newImage) record.NewImage = change.newImage;
  if (change.oldImage) record.OldImage = change.oldImage;
  return JSON.stringify(record);
}

function partitionOf(line: string): number {
  return createHash('md5').update(line).digest()[0]! % DATA_FILES;
}

/**
 * Writes the documented layout under <prefix>/AWSDynamoDB/<exportId>/: _started, data/*.json.gz
 * (JSON lines, gzip), manifest-files.json (one JSON line per data file) and manifest-summary.json.
 * Keys in the manifests are full object keys, prefix included, as the service writes them.
 */
export async function writeExportLayout(
  s3: S3Client,
  summary: LayoutSummary,
  exportId: string,
  rows: { items?: Item[]; changes?: ChangeRecord[] },
  endTime: () => Date,
): Promise<WrittenExport> {
  const root = `${summary.s3Prefix ? `${summary.s3Prefix.replace(/\/+$/, '')}/` : ''}AWSDynamoDB/${exportId}`;
  const put = (key: string, body: string | Buffer) =>
    s3.send(new PutObjectCommand({ Bucket: summary.s3Bucket, Key: key, Body: body }));
  await put(`${root}/_started`, Buffer.alloc(0));
  const lines = rows.changes
    ? rows.changes.map((change) => changeLine(change, summary.format))
    : (rows.items ?? []).map((item) => fullLine(item, summary.format));
  const files: string[][] = Array.from({ length: DATA_FILES }, () => []);
  for (const line of lines) files[partitionOf(line)]!.push(line);
  let billedSizeBytes = 0;
  const manifestLines: string[] = [];
  for (const [index, fileLines] of files.entries()) {
    const text = fileLines.map((line) => `${line}\n`).join('');
    billedSizeBytes += Buffer.byteLength(text);
    const gz = gzipSync(text);
    const key = `${root}/data/${exportId.replace(/-/g, '')}part${index}.${summary.format === 'ION' ? 'ion' : 'json'}.gz`;
    const answer = await put(key, gz);
    manifestLines.push(
      JSON.stringify({
        itemCount: fileLines.length,
        md5Checksum: createHash('md5').update(gz).digest('base64'),
        etag: (answer.ETag ?? '').replace(/"/g, ''),
        dataFileS3Key: key,
      }),
    );
  }
  const manifestFilesKey = `${root}/manifest-files.json`;
  await put(manifestFilesKey, `${manifestLines.join('\n')}\n`);
  const body: Record<string, unknown> = {
    version: '2020-06-30',
    exportType: summary.incremental ? 'INCREMENTAL_EXPORT' : 'FULL_EXPORT',
    exportArn: summary.exportArn,
    startTime: summary.startTime.toISOString(),
    endTime: endTime().toISOString(),
    tableArn: summary.tableArn,
    tableId: summary.tableId,
    exportTime: summary.exportTime.toISOString(),
    s3Bucket: summary.s3Bucket,
    s3Prefix: summary.s3Prefix ?? null,
    s3SseAlgorithm: 'AES256',
    s3SseKmsKeyId: null,
    manifestFilesS3Key: manifestFilesKey,
    billedSizeBytes,
    itemCount: lines.length,
    outputFormat: summary.format,
  };
  if (summary.incremental) {
    body.exportFromTime = summary.incremental.from.toISOString();
    body.exportToTime = summary.incremental.to.toISOString();
    body.outputView = summary.incremental.view;
  }
  const manifestSummaryKey = `${root}/manifest-summary.json`;
  await put(manifestSummaryKey, JSON.stringify(body));
  return { manifestSummaryKey, itemCount: lines.length, billedSizeBytes };
}
