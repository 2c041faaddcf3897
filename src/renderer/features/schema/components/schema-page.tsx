import { useEffect, useState } from 'react';
import { ErrorMessage } from '../../../ui/error-message';
import type { TableViewProps } from '../../table/tabs';
import { OperationProgress, readCost } from '../../operations/components/operation-progress';
import { useSettleSchemaRead } from '../hooks';
import { type SchemaTarget, useSchemaStore, useSchemaView } from '../store';
import { showInItems } from '../click-through';
import { openInSql } from '../../sql/open-in-sql';
import { SchemaControls } from './schema-controls';
import { SchemaReportView } from './schema-report';
import '../../migration/migration.css';
import '../schema.css';

/** The Schema tab: what every attribute path of the table (or one index) holds, per entity. */
export function SchemaPage({ connection, table, description }: TableViewProps) {
  const [index, setIndex] = useState('');
  const target: SchemaTarget = { connectionId: connection.id, table, ...(index ? { index } : {}) };
  const view = useSchemaView(target);
  const { start, select } = useSchemaStore.getState();
  useEffect(() => {
    void useSchemaStore.getState().load({ connectionId: connection.id, table, ...(index ? { index } : {}) });
  }, [connection.id, table, index]);
  useSettleSchemaRead(target, view.requestId);
  const indexes = description?.summary.indexes ?? [];
  const report = view.report;
  const resumable = view.requestId
    ? undefined
    : view.scans.find((s) => s.mode === 'full' && (s.state === 'cancelled' || s.state === 'failed'));
  const typeAttributes = (report?.attributes ?? [])
    .filter(
      (a) =>
        !a.path.includes('.') &&
        !a.path.includes('[') &&
        !a.path.startsWith('"') &&
        a.types.S &&
        a.distinct.isExact,
    )
    .map((a) => a.path);

  return (
    <div className="mig-page schema-page">
      <div className="mig-main">
        <section className="panel" aria-labelledby="schema-title">
          <h2 id="schema-title" className="panel-title">
            Schema
          </h2>
          <div className="mig-panel-body">
            <p className="muted mig-intro">
              What every attribute path really holds — presence, DynamoDB types, formats, ranges and distinct
              values — per entity, from a sample spread over Scan segments or a full scan.
            </p>
            {indexes.length > 0 ? (
              <label className="mig-control schema-source">
                <span className="field-label">Source</span>
                <select className="input" value={index} onChange={(e) => setIndex(e.target.value)}>
                  <option value="">Table {table}</option>
                  {indexes.map((i) => (
                    <option key={i.name} value={i.name}>
                      {i.kind} {i.name}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <SchemaControls
              typeAttributes={typeAttributes}
              resumable={resumable}
              isBusy={Boolean(view.requestId)}
              onStart={(options) => void start(target, options)}
            />
            {view.requestId ? (
              <OperationProgress requestId={view.requestId} label="Reading" numbers={readCost} />
            ) : null}
            {view.error ? <ErrorMessage compact error={view.error} connectionId={connection.id} /> : null}
            {!report && !view.requestId ? (
              <p className="muted schema-empty">
                {/* Said for both ways to read: with Full scan chosen, it spoke of Sample alone. */}
                No read yet: Sample reads items spread over the whole table; Full scan reads every item.
              </p>
            ) : null}
          </div>
        </section>
        {report ? (
          <SchemaReportView
            report={report}
            connectionId={connection.id}
            entity={view.entity}
            path={view.path}
            onEntity={(entity) => select(target, { entity, path: undefined })}
            onPath={(path) => select(target, { path })}
            handlers={{
              onItems: (filter) =>
                description
                  ? showInItems(
                      {
                        connectionId: connection.id,
                        table,
                        keys: description.summary.keys,
                        indexes: description.summary.indexes,
                      },
                      filter,
                      report.index,
                    )
                  : 'The table’s description is still loading.',
              onSql: (text) => openInSql(connection.id, text),
            }}
          />
        ) : null}
      </div>
    </div>
  );
}
