import type { IndexInfo } from '../../../../shared/ipc';
import { Badge } from '../../../ui/badge';
import { formatCount } from '../../../ui/format';
import { partitionAttributes, sortAttributes } from '../../../../shared/dynamo/key-model';
import { KeyAttributes } from '../../tables/components/key-label';

function projectionLabel(index: IndexInfo): string {
  if (index.projection === 'ALL') return 'All attributes';
  if (index.projection === 'KEYS_ONLY') return 'Keys only';
  const attributes = index.projectedAttributes ?? [];
  return attributes.length > 0 ? `Include: ${attributes.join(', ')}` : 'Include';
}

export function IndexTable({ indexes }: { indexes: IndexInfo[] }) {
  if (indexes.length === 0) {
    return <p className="muted panel-empty">This table has no secondary indexes.</p>;
  }
  return (
    <table className="data-table is-compact index-table" aria-label="Indexes">
      <thead>
        <tr>
          <th>Name</th>
          <th>Type</th>
          <th>Partition key</th>
          <th>Sort key</th>
          <th>Projection</th>
          <th>Status</th>
          <th className="num">Items</th>
        </tr>
      </thead>
      <tbody>
        {indexes.map((index) => (
          <tr key={index.name} data-testid="index-row">
            <td className="mono">{index.name}</td>
            <td>
              <Badge tone={index.kind === 'GSI' ? 'accent' : 'neutral'}>{index.kind}</Badge>
            </td>
            <td>
              <KeyAttributes attributes={partitionAttributes(index.keys)} />
            </td>
            <td>
              <KeyAttributes attributes={sortAttributes(index.keys)} />
            </td>
            <td className="projection">{projectionLabel(index)}</td>
            <td>{index.status ? index.status.toLowerCase() : <span className="muted">—</span>}</td>
            <td className="num">
              {index.itemCount === undefined ? '—' : `≈ ${formatCount(index.itemCount)}`}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
