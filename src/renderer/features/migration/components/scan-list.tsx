import type { ScanSummary } from '../../../../shared/ipc';
import { Badge } from '../../../ui/badge';
import { formatDate } from '../../../ui/format';
import { useOperation } from '../../operations/store';
import { useMigrationStore } from '../store';

const tone = { done: 'success', running: 'accent', cancelled: 'warning', failed: 'danger' } as const;

/**
 * The items a scan has read: main's summary, or while it runs the count its progress events
 * carry (the summary was read when the scan started and is not read again until it ends).
 */
function ScannedCount({ scan }: { scan: ScanSummary }) {
  const progress = useOperation(scan.state === 'running' ? scan.requestId : undefined)?.progress;
  return <>{Math.max(scan.itemsScanned, progress?.items ?? 0).toLocaleString('en-US')}</>;
}

/** Earlier scans of this table; a click opens its report (partial for a stopped one). */
export function ScanList({
  connectionId,
  table,
  scans,
  selectedScanId,
}: {
  connectionId: string;
  table: string;
  scans: ScanSummary[];
  selectedScanId?: string;
}) {
  const openReport = useMigrationStore((s) => s.openReport);
  if (scans.length === 0) return null;
  return (
    <table className="data-table is-compact mig-scans">
      <thead>
        <tr>
          <th>Started</th>
          <th>State</th>
          <th className="num">Items</th>
          <th>Verdict</th>
        </tr>
      </thead>
      <tbody>
        {scans.slice(0, 8).map((scan) => (
          <tr
            key={scan.scanId}
            className={scan.scanId === selectedScanId ? 'is-selected' : undefined}
            onClick={() => void openReport(connectionId, table, scan.scanId)}
            tabIndex={0}
            onKeyDown={(e) => {
              if (e.key === 'Enter') void openReport(connectionId, table, scan.scanId);
            }}
          >
            <td>{formatDate(scan.startedAt)}</td>
            <td>
              <Badge tone={tone[scan.state]}>{scan.state}</Badge>
            </td>
            <td className="num">
              <ScannedCount scan={scan} />
            </td>
            <td className="mig-verdict-cell" title={scan.error ?? scan.verdictLine}>
              {scan.error ?? scan.verdictLine ?? '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
