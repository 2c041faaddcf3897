import { AppFailure, ErrorCodes } from '../../shared/errors';

/**
 * manifest-summary.json and manifest-files.json as the DynamoDB developer guide documents them
 * ("DynamoDB table export output format"). Only the fields DynoTable reads are kept.
 */
export interface ExportSummary {
  exportArn: string;
  tableArn: string;
  exportTime: string;
  itemCount: number;
  billedSizeBytes: number;
  outputFormat: 'DYNAMODB_JSON' | 'ION';
  manifestFilesKey: string;
  /** FULL_EXPORT when the summary does not say (exports from before incremental ones existed). */
  exportType: 'FULL_EXPORT' | 'INCREMENTAL_EXPORT';
  exportFromTime?: string;
  exportToTime?: string;
  outputView?: 'NEW_IMAGE' | 'NEW_AND_OLD_IMAGES';
}

export interface DataFileEntry {
  key: string;
  itemCount: number;
}

const broken = (where: string, why: string): AppFailure =>
  new AppFailure(ErrorCodes.invalidInput, `${where} is not a DynamoDB export manifest: ${why}.`);

function field(record: Record<string, unknown>, name: string, where: string): string {
  const value = record[name];
  if (typeof value !== 'string' || value === '') throw broken(where, `it has no "${name}"`);
  return value;
}

export function parseSummary(text: string, where: string): ExportSummary {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw broken(where, 'it is not JSON');
  }
  if (parsed === null || typeof parsed !== 'object') throw broken(where, 'it is not a JSON object');
  const record = parsed as Record<string, unknown>;
  const format = record.outputFormat ?? 'DYNAMODB_JSON';
  if (format !== 'DYNAMODB_JSON' && format !== 'ION')
    throw broken(where, `its outputFormat is ${JSON.stringify(format)}`);
  const type = record.exportType === 'INCREMENTAL_EXPORT' ? 'INCREMENTAL_EXPORT' : 'FULL_EXPORT';
  const view = record.outputView === 'NEW_IMAGE' ? 'NEW_IMAGE' : 'NEW_AND_OLD_IMAGES';
  return {
    exportArn: field(record, 'exportArn', where),
    tableArn: field(record, 'tableArn', where),
    exportTime: typeof record.exportTime === 'string' ? record.exportTime : '',
    itemCount: typeof record.itemCount === 'number' ? record.itemCount : 0,
    billedSizeBytes: typeof record.billedSizeBytes === 'number' ? record.billedSizeBytes : 0,
    outputFormat: format,
    manifestFilesKey: field(record, 'manifestFilesS3Key', where),
    exportType: type,
    ...(type === 'INCREMENTAL_EXPORT'
      ? {
          exportFromTime: typeof record.exportFromTime === 'string' ? record.exportFromTime : undefined,
          exportToTime: typeof record.exportToTime === 'string' ? record.exportToTime : undefined,
          outputView: view,
        }
      : {}),
  };
}

/** manifest-files.json: JSON lines, one data file each. */
export function parseFilesManifest(text: string, where: string): DataFileEntry[] {
  const entries: DataFileEntry[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw broken(where, `line ${index + 1} is not JSON`);
    }
    entries.push({
      key: field(record, 'dataFileS3Key', `${where} line ${index + 1}`),
      itemCount: typeof record.itemCount === 'number' ? record.itemCount : 0,
    });
  }
  return entries;
}

/** The table name inside an ARN (…:table/Name or …:table/Name/export/…). */
export function tableNameOf(arn: string): string {
  return /:table\/([^/]+)/.exec(arn)?.[1] ?? arn;
}
