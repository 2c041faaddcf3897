import type { TransferFormat } from '../../../../shared/ipc/transfer';
import { Check } from '../../../ui/check';

const formatLabels: Record<TransferFormat, string> = {
  'dynamodb-json': 'DynamoDB JSON',
  jsonl: 'JSON Lines (S3 export format)',
  csv: 'CSV with a type row',
};

/** The file formats export writes and import reads. */
export function FormatChoice({
  value,
  onChange,
}: {
  value: TransferFormat;
  onChange(format: TransferFormat): void;
}) {
  return (
    <div className="qb-row">
      {(['jsonl', 'dynamodb-json', 'csv'] as const).map((format) => (
        <Check key={format} type="radio" checked={value === format} onChange={() => onChange(format)}>
          {formatLabels[format]}
        </Check>
      ))}
    </div>
  );
}
