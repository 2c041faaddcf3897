import { useId } from 'react';
import type { RowsFormat, TransferFormat } from '../../../../shared/ipc/transfer';
import { Check } from '../../../ui/check';

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
  const name = useId();
  const reasonId = useId();
  return (
    <fieldset className="form-group">
      <legend>File format</legend>
      <div className="qb-row">
        {formats.map((format) => (
          <Check
            key={format}
            type="radio"
            name={name}
            checked={value === format}
            disabled={unavailable?.format === format}
            describedBy={unavailable?.format === format ? reasonId : undefined}
            onChange={() => onChange(format)}
          >
            {formatLabels[format]}
          </Check>
        ))}
      </div>
      {unavailable ? (
        <p id={reasonId} className="muted small">
          {unavailable.reason}
        </p>
      ) : null}
    </fieldset>
  );
}
