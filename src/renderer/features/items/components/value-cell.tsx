import type { AttributeValue } from '../../../../shared/dynamo/attribute-value';
import { base64ByteLength, formatBytes } from '../../../../shared/dynamo/item-size';
import { dateTitle, localText, readAsDate, useDateView } from '../date-view';

const MAX_TEXT = 160;

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

function setText(members: string[]): string {
  return clip(members.join(', '));
}

export interface ValueCellProps {
  value: AttributeValue | undefined;
  /** Opens the nested value of a list or map. */
  onExpand?: () => void;
}

/**
 * One cell, by type: numbers exactly as stored (no JS number ever touches them), binary as
 * base64 with its size, sets marked as sets, lists and maps as a count that expands.
 */
export function ValueCell({ value, onExpand }: ValueCellProps) {
  const showDates = useDateView((s) => s.isOn);
  if (value === undefined) return <span className="cell-missing" aria-label="missing" />;
  const reading = showDates ? readAsDate(value) : undefined;
  if (reading) {
    const stored = 'N' in value ? value.N : 'S' in value ? value.S : '';
    return (
      <span className="cell-date" title={dateTitle(reading, stored)}>
        {localText(reading.date)}
      </span>
    );
  }
  if ('S' in value)
    return (
      <span title={value.S.length > MAX_TEXT ? value.S : undefined}>
        {value.S === '' ? <em className="cell-faint">empty</em> : clip(value.S)}
      </span>
    );
  if ('N' in value) return <span className="cell-number">{value.N}</span>;
  if ('B' in value) {
    return (
      <span className="cell-binary" title={value.B}>
        <span className="cell-type">B</span>
        {value.B === '' ? <em className="cell-faint">empty</em> : clip(value.B.slice(0, 24))}
        <span className="cell-faint"> · {formatBytes(base64ByteLength(value.B))}</span>
      </span>
    );
  }
  if ('BOOL' in value)
    return <span className={value.BOOL ? 'cell-true' : 'cell-false'}>{String(value.BOOL)}</span>;
  if ('NULL' in value) return <em className="cell-faint">null</em>;
  if ('SS' in value) return <SetCell type="SS" text={setText(value.SS.map((s) => JSON.stringify(s)))} />;
  if ('NS' in value) return <SetCell type="NS" text={setText(value.NS)} />;
  if ('BS' in value) return <SetCell type="BS" text={setText(value.BS)} />;
  const isList = 'L' in value;
  const size = isList ? value.L.length : Object.keys(value.M).length;
  return (
    <button
      type="button"
      className="cell-expand"
      // The grid has one tab stop (its focused cell); Enter there opens the item.
      tabIndex={-1}
      onClick={onExpand}
      // A title, not a name: the name is the text it shows (axe's label-content-name-mismatch).
      title={`Show the ${isList ? 'list' : 'map'} of ${size}`}
    >
      <span aria-hidden="true">▸</span> {isList ? `[${size}]` : `{${size}}`}
      <span className="cell-type">{isList ? 'L' : 'M'}</span>
    </button>
  );
}

function SetCell({ type, text }: { type: string; text: string }) {
  return (
    <span className="cell-set" title={`${type}: a set, not a list`}>
      <span className="cell-type">{type}</span>
      {`{${text}}`}
    </span>
  );
}
