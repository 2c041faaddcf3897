import { useState } from 'react';
import { Button } from '../../../ui/button';
import { CopyDialog } from '../../copy/copy-dialog';
import { SkeletonRows } from '../../../ui/skeleton';
import { useTableDescription } from '../../tables/hooks';
import type { TableViewProps } from '../tabs';
import { IndexTable } from './index-table';
import { RawJson } from './raw-json';
import { SettingsGrid } from './settings-grid';
import { ChangeSection } from './change/change-section';

/** The table's description: keys, indexes, capacity, settings, identity, and the raw response. */
export function TableOverview({ connection, table }: TableViewProps) {
  const description = useTableDescription(connection.id, table);
  const value = description?.value;
  const [isCopying, setCopying] = useState(false);

  // A failed describe is said by the table page above every view, with its Try again.
  if (!value) return <SkeletonRows rows={6} columns={4} />;

  const { summary, raw } = value;
  return (
    <div className="overview">
      <SettingsGrid summary={summary} />
      <section className="panel" aria-labelledby="indexes-heading">
        <h2 id="indexes-heading" className="panel-title">
          Indexes <span className="muted">{summary.indexes.length}</span>
        </h2>
        <IndexTable indexes={summary.indexes} />
      </section>
      <ChangeSection key={summary.name} connection={connection} summary={summary} />
      <section className="panel" aria-labelledby="copy-heading">
        <h2 id="copy-heading" className="panel-title">
          Copy
        </h2>
        <div className="panel-body">
          <p className="muted">
            Every item of {table}, exactly, into another table here or on another connection; the table is
            created from this one&apos;s definition when it does not exist.
          </p>
          <p>
            <Button onClick={() => setCopying(true)}>Copy to…</Button>
          </p>
        </div>
      </section>
      {isCopying ? (
        <CopyDialog connection={connection} table={table} onClose={() => setCopying(false)} />
      ) : null}
      <RawJson value={raw} />
    </div>
  );
}
