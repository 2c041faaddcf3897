import { useId } from 'react';
import type { RowsFormat, TransferFormat } from '../../../../shared/ipc/transfer';
import { ChoiceGroup } from '../../../ui/choice-group';

const formatLabels: Record<RowsFormat, string> = {
  'dynamodb-json': 'DynamoDB JSON',
  jsonl: 'JSON Lines (S3 export format)',
  csv: 'CSV with a type row',
  json: 'JSON array',
};

/** The typed formats: what import reads (and every export writes). */
export const TYPED_FORMATS: readonly TransferFormat[] = ['jsonl', 'dynamodb-json', 'csv'];
/** An export of rows adds a plain JSON array, which has no types and so never comes back in. */
export const ROWS_FORMATS: readonly RowsFormat[] = [...TYPED_FORMATS, 'json'];

/**
 * The file format of an import or an export, one radio each under its heading; `unavailable`
 * disables a format and says why under the radios (a disabled radio's tooltip never shows to the
 * keyboard, and the choice it replaced changed without a word).
 */
export function FormatChoice<F extends RowsFormat>({
  formats,
  value,
  onChange,
  unavailable,
}: {
  formats: readonly F[];
  value: NoInfer<F>;
  onChange(format: NoInfer<F>): void;
  unavailable?: { format: NoInfer<F>; reason: string };
}) {
  const reasonId = useId();
  return (
    <ChoiceGroup
      legend="File format"
      value={value}
      choices={formats.map((format) => ({
        value: format,
        label: formatLabels[format],
        ...(unavailable?.format === format ? { disabled: true, describedBy: reasonId } : {}),
      }))}
      onChange={onChange}
    >
      {unavailable ? (
        <p id={reasonId} className="muted small">
          {unavailable.reason}
        </p>
      ) : null}
    </ChoiceGroup>
  );
}
