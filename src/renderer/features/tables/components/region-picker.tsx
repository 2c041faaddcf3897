import type { Connection } from '../../../../shared/ipc';
import { DYNAMODB_REGIONS } from '../../../../shared/dynamo/regions';
import type { RegionList } from '../region-store';

export interface RegionPickerProps {
  connection: Connection;
  /** '' for the connection's own region, 'all', or one region. */
  value: string;
  onChange(value: string): void;
}

/** Which regions the list shows: the connection's own, every region, or another one. */
export function RegionPicker({ connection, value, onChange }: RegionPickerProps) {
  return (
    <label className="region-picker small">
      <span className="muted">Region</span>
      <select className="input" value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{connection.region} (this connection)</option>
        <option value="all">All regions</option>
        {DYNAMODB_REGIONS.filter((r) => r !== connection.region).map((region) => (
          <option key={region} value={region}>
            {region}
          </option>
        ))}
      </select>
    </label>
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
