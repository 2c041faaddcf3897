import type { ImportStateView } from '../../../shared/ipc/exports';
import { countOf } from '../../ui/format';

/**
 * The sentence an S3 import ends with. ImportTable's ErrorCount counts the source's records that
 * could not become items (each one logged to CloudWatch Logs), not lines of the files: a CSV row
 * can span lines, and a DynamoDB JSON or Ion item usually does. An earlier sentence said "lines".
 */
export function importSummary(result: ImportStateView): string {
  const done = `Import ${result.status.toLowerCase()}: ${countOf(result.importedItems, 'item')} in ${result.table}`;
  if (result.errors === 0) return `${done}.`;
  return `${done}; ${countOf(result.errors, 'item')} of the source could not be imported (DynamoDB logs each one to CloudWatch Logs).`;
}
