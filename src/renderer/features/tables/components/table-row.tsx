import type { TableSummary } from '../../../../shared/ipc';
import { Badge } from '../../../ui/badge';
import { billingLabel, formatBytes, formatCount, countOf } from '../../../ui/format';
import { KeyAttribute } from './key-label';
import { CapacityUnit } from '../../../ui/capacity-unit';

const indexKindWords = {
  GSI: 'global secondary index (GSI), queried by its own keys across the table',
  LSI: 'local secondary index (LSI), another sort key within each partition',
} as const;

function IndexesCell({ table }: { table: TableSummary }) {
  const gsis = table.indexes.filter((index) => index.kind === 'GSI');
  const lsis = table.indexes.filter((index) => index.kind === 'LSI');
  if (table.indexes.length === 0) return <span className="muted">—</span>;
  // GSI and LSI are DynamoDB's abbreviations: the tooltip spells them out beside each name.
  const names = table.indexes.map((index) => `${index.name}: ${indexKindWords[index.kind]}`).join('\n');
  return (
    <span className="index-counts" title={names}>
      {gsis.length > 0 ? <Badge tone="accent">{gsis.length} GSI</Badge> : null}
      {lsis.length > 0 ? <Badge tone="neutral">{lsis.length} LSI</Badge> : null}
    </span>
  );
}

function OnOff({
  isOn,
  on,
  off = 'Off',
  title,
}: {
  isOn: boolean;
  on: string;
  off?: string;
  title?: string;
}) {
  return (
    <span className={isOn ? 'state-on' : 'state-off'} title={title}>
      {isOn ? on : off}
    </span>
  );
}

export interface TableRowProps {
  table: TableSummary;
  onOpen: () => void;
}

export function TableRow({ table, onOpen }: TableRowProps) {
  const ttlOn = table.ttl.status === 'ENABLED' || table.ttl.status === 'ENABLING';
  return (
    <tr onDoubleClick={onOpen} data-testid="table-row">
      <td className="cell-name">
        <button type="button" className="table-link" title={table.name} onClick={onOpen}>
          {table.name}
        </button>
      </td>
      <td>
        {table.status === 'ACTIVE' ? (
          <span className="muted">Active</span>
        ) : (
          <Badge tone="warning">{table.status.toLowerCase()}</Badge>
        )}
      </td>
      <td>
        <KeyAttribute attribute={table.keys.partitionKey} />
      </td>
      <td>
        <KeyAttribute attribute={table.keys.sortKey} />
      </td>
      <td>
        <IndexesCell table={table} />
      </td>
      <td>
        {billingLabel(table.billingMode)}
        {table.billingMode === 'PROVISIONED' ? (
          <span className="muted small capacity">
            {' '}
            {table.readCapacity ?? '?'} <CapacityUnit unit="RCU" /> · {table.writeCapacity ?? '?'}{' '}
            <CapacityUnit unit="WCU" />
          </span>
        ) : null}
      </td>
      <td className="num" title={`About ${countOf(table.itemCount, 'item')}`}>
        ≈ {formatCount(table.itemCount)}
      </td>
      <td className="num" title={`About ${table.sizeBytes.toLocaleString('en-US')} bytes`}>
        ≈ {formatBytes(table.sizeBytes)}
      </td>
      <td>
        <OnOff
          isOn={ttlOn}
          on={table.ttl.attribute ?? 'On'}
          title={`TTL ${table.ttl.status.toLowerCase()}`}
        />
      </td>
      <td>
        <OnOff
          isOn={table.stream.enabled}
          on={table.stream.viewType ? streamLabel(table.stream.viewType) : 'On'}
        />
      </td>
      <td>
        {table.pointInTimeRecovery === 'UNKNOWN' ? (
          <span className="muted" title="DynoTable could not read the backup settings of this table">
            —
          </span>
        ) : (
          <OnOff isOn={table.pointInTimeRecovery === 'ENABLED'} on="On" />
        )}
      </td>
      <td>
        <OnOff isOn={table.deletionProtection} on="On" />
      </td>
    </tr>
  );
}

export function streamLabel(viewType: string): string {
  return viewType
    .toLowerCase()
    .split('_')
    .map((word, index) => (index === 0 ? word.charAt(0).toUpperCase() + word.slice(1) : word))
    .join(' ');
}
