import { Select } from '../../ui/select';
import { TextInput } from '../../ui/text-input';

export type RateUnit = 'items/s' | '% of capacity';
const rateUnits: RateUnit[] = ['items/s', '% of capacity'];

/** A rate field as the input wants it: items/s, or a share of provisioned capacity. */
export function rateOf(text: string, unit: RateUnit, rate: string, share: string): Record<string, number> {
  const n = Number(text);
  if (!(n > 0)) return {};
  return unit === 'items/s' ? { [rate]: n } : { [share]: Math.min(100, n) / 100 };
}

export function CopyCounts(props: {
  read: number;
  written: number;
  skipped: number;
  failed: number;
  rate?: number;
  eta?: number;
}) {
  const n = (v: number) => v.toLocaleString('en-US');
  return (
    <dl className="copy-counts">
      <div>
        <dt>Read</dt>
        <dd>{n(props.read)}</dd>
      </div>
      <div>
        <dt>Written</dt>
        <dd>{n(props.written)}</dd>
      </div>
      <div>
        <dt>Skipped</dt>
        <dd>{n(props.skipped)}</dd>
      </div>
      <div>
        <dt>Failed</dt>
        <dd>{n(props.failed)}</dd>
      </div>
      {props.rate !== undefined ? (
        <div>
          <dt>Rate</dt>
          <dd>{n(Math.round(props.rate))} items/s</dd>
        </div>
      ) : null}
      {props.eta !== undefined ? (
        <div>
          <dt>Left</dt>
          <dd>about {props.eta < 90 ? `${props.eta} s` : `${Math.round(props.eta / 60)} min`}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/** At most so many items per second, or a share of the table's provisioned RCU/WCU. */
export function RateField(props: {
  side: 'Read' | 'Write';
  value: string;
  unit: RateUnit;
  onValue(value: string): void;
  onUnit(unit: RateUnit): void;
}) {
  const units = props.side === 'Read' ? 'RCU' : 'WCU';
  return (
    <div className="row-field" role="group" aria-label={`${props.side} rate`}>
      <span>{props.side} at most</span>
      <span className="qb-row">
        <TextInput
          label={`${props.side} rate`}
          inputMode="decimal"
          value={props.value}
          onChange={props.onValue}
          placeholder="no limit"
        />
        <Select
          label={`${props.side} rate unit`}
          value={props.unit}
          options={rateUnits}
          labelOf={(u) => (u === 'items/s' ? 'items/s' : `% of ${units}`)}
          onChange={props.onUnit}
        />
      </span>
    </div>
  );
}
