import type { AttributeValue } from '../../../../shared/dynamo/attribute-value';
import { plainValue } from '../../../ui/cell-text';

/**
 * One result cell. Numbers are shown exactly as the engine computed them (the text, never a
 * JS number); sets and lists as arrays, maps as JSON; a missing value is blank and NULL says so.
 */
export function SqlCell({ value }: { value: AttributeValue | null | undefined }) {
  if (value === null || value === undefined) return <span className="sql-missing" aria-label="missing" />;
  if ('NULL' in value) return <em className="sql-faint">NULL</em>;
  if ('N' in value) return <span className="sql-number">{value.N}</span>;
  if ('S' in value)
    return (
      <span title={value.S.length > 80 ? value.S : undefined}>
        {value.S === '' ? <em className="sql-faint">empty</em> : value.S}
      </span>
    );
  if ('BOOL' in value) return <span className="sql-bool">{String(value.BOOL)}</span>;
  if ('B' in value) return <span className="sql-faint">{value.B.slice(0, 24)}…</span>;
  const kind = Object.keys(value)[0]!;
  const text = JSON.stringify(plainValue(value));
  return (
    <span className="sql-nested" title={text.length > 80 ? text : undefined}>
      <span className="sql-type">{kind}</span>
      {text}
    </span>
  );
}
