import type { Connection, ScanSummary } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { useMigrationStore } from '../store';
import { ScanPacingFields, useScanPacing } from './scan-pacing-fields';

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
  const pacing = useScanPacing(isProvisioned);
  const { segments, limit, isValid } = pacing;

  return (
    <div className="mig-controls">
      <ScanPacingFields pacing={pacing} isProvisioned={isProvisioned} />
      <Button
        variant="primary"
        disabled={!isValid || isBusy}
        onClick={() => void startScan(connection.id, table, { segments, limit })}
      >
        Scan table
      </Button>
      {resumable ? (
        <Button
          disabled={isBusy}
          onClick={() =>
            void startScan(connection.id, table, {
              segments: resumable.segments,
              limit,
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
