import type { Connection } from '../../../../shared/ipc';
import { DYNAMODB_REGIONS } from '../../../../shared/dynamo/regions';
import { Button } from '../../../ui/button';
import type { RegionList } from '../region-store';

export interface RegionPickerProps {
  connection: Connection;
  /** The regions listed, the connection's own first when chosen. */
  value: string[];
  onChange(value: string[]): void;
}

/** The regions the list shows: any set of them, at least one; remembered per connection by the caller. */
export function RegionPicker({ connection, value, onChange }: RegionPickerProps) {
  const all = [connection.region, ...DYNAMODB_REGIONS.filter((r) => r !== connection.region)];
  const set = (region: string, isOn: boolean) => {
    const next = all.filter((r) => (r === region ? isOn : value.includes(r)));
    if (next.length > 0) onChange(next);
  };
  const summary =
    value.length === all.length
      ? 'all regions'
      : value.length <= 2
        ? value.join(', ')
        : `${value.slice(0, 2).join(', ')} +${value.length - 2}`;
  return (
    <details className="region-picker small">
      <summary>
        Regions: <span className="region-picker-summary">{summary}</span>
      </summary>
      <fieldset className="region-picker-panel">
        <legend>Regions to list</legend>
        <div className="region-picker-actions">
          <Button size="sm" onClick={() => onChange(all)}>
            All regions
          </Button>
          <Button size="sm" onClick={() => onChange([connection.region])}>
            Only {connection.region}
          </Button>
        </div>
        <div className="region-picker-options">
          {all.map((region) => (
            <label key={region} className="check-label">
              <input
                type="checkbox"
                checked={value.includes(region)}
                // The last region chosen stays: a list of no region shows nothing.
                disabled={value.length === 1 && value[0] === region}
                onChange={(event) => set(region, event.target.checked)}
              />
              {region}
              {region === connection.region ? <span className="muted"> (this connection)</span> : null}
            </label>
          ))}
        </div>
      </fieldset>
    </details>
  );
}

/**
 * What went wrong per region, one sentence each, above the tables the other regions listed; and
 * how many opt-in regions were left out because the account has not enabled them.
 */
export function RegionProblems({ list }: { list: RegionList }) {
  const failed = (list.value ?? []).filter((r) => r.error);
  const notEnabled = (list.value ?? []).filter((r) => r.isNotEnabled).length;
  return (
    <>
      {list.status === 'error' && list.error ? (
        <p className="region-error" role="alert">
          {list.error.message}
        </p>
      ) : null}
      {list.status === 'cancelled' ? (
        <p className="muted small" role="status">
          Listing cancelled. {list.value ? 'Showing the regions of the last complete listing.' : ''}
        </p>
      ) : null}
      {failed.length > 0 ? (
        <ul className="region-errors" aria-label="Regions that could not be listed">
          {failed.map((r) => (
            <li key={r.region} className="region-error">
              {r.error?.message}
            </li>
          ))}
        </ul>
      ) : null}
      {notEnabled > 0 ? (
        <p className="muted small">
          {notEnabled === 1 ? '1 region is' : `${notEnabled} regions are`} not enabled for this account and
          not listed.
        </p>
      ) : null}
    </>
  );
}
