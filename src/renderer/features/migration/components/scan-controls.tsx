import { useState } from 'react';
import type { Connection, ReadLimit, ScanSummary } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { useMigrationStore } from '../store';

type LimitKind = 'none' | 'items' | 'rcu' | 'share';

function limitOf(kind: LimitKind, value: number): ReadLimit | undefined {
  if (kind === 'items') return { itemsPerSecond: value };
  if (kind === 'rcu') return { readCapacityPerSecond: value };
  if (kind === 'share') return { shareOfProvisioned: Math.min(1, value / 100) };
  return undefined;
}

/** Segments and the read limit, then Start (or Resume the last interrupted scan). */
export function ScanControls(props: {
  connection: Connection;
  table: string;
  isProvisioned: boolean;
  resumable?: ScanSummary;
  isBusy: boolean;
}) {
  const { connection, table, isProvisioned, resumable, isBusy } = props;
  const startScan = useMigrationStore((state) => state.startScan);
  const [segments, setSegments] = useState(4);
  const [kind, setKind] = useState<LimitKind>(isProvisioned ? 'share' : 'none');
  const [value, setValue] = useState(isProvisioned ? 25 : 500);
  const isValid =
    Number.isInteger(segments) && segments >= 1 && segments <= 64 && (kind === 'none' || value > 0);

  return (
    <div className="mig-controls">
      <label className="mig-control">
        <span className="field-label">Segments</span>
        <input
          className="input"
          type="number"
          min={1}
          max={64}
          value={segments}
          onChange={(e) => setSegments(Number(e.target.value))}
        />
      </label>
      <label className="mig-control">
        <span className="field-label">Read limit</span>
        <select className="input" value={kind} onChange={(e) => setKind(e.target.value as LimitKind)}>
          <option value="none">No limit</option>
          <option value="items">Items per second</option>
          <option value="rcu">Read capacity units per second</option>
          {isProvisioned ? <option value="share">% of provisioned read capacity</option> : null}
        </select>
      </label>
      {kind !== 'none' ? (
        <label className="mig-control">
          <span className="field-label">{kind === 'share' ? 'Percent' : 'Per second'}</span>
          <input
            className="input"
            type="number"
            min={1}
            value={value}
            onChange={(e) => setValue(Number(e.target.value))}
          />
        </label>
      ) : null}
      <Button
        variant="primary"
        disabled={!isValid || isBusy}
        onClick={() => void startScan(connection.id, table, { segments, limit: limitOf(kind, value) })}
      >
        Scan table
      </Button>
      {resumable ? (
        <Button
          disabled={isBusy}
          onClick={() =>
            void startScan(connection.id, table, {
              segments: resumable.segments,
              limit: limitOf(kind, value),
              resumeScanId: resumable.scanId,
            })
          }
        >
          Resume scan ({resumable.itemsScanned.toLocaleString('en-US')} items done)
        </Button>
      ) : null}
    </div>
  );
}
