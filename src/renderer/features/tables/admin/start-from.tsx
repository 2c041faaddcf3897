import { useEffect, useState } from 'react';
import type { Connection } from '../../../../shared/ipc';
import {
  blankDefinition,
  singleTableDefinition,
  type TableDefinition,
} from '../../../../shared/dynamo/table-definition';
import {
  definitionFromDescription,
  ImportProblem,
  parseTableText,
} from '../../../../shared/dynamo/table-definition-import';
import { call } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { FieldError } from '../../../ui/field';
import { Select } from '../../../ui/select';
import { isSingleRegion, regionalConnectionId } from '../../../../shared/dynamo/regions';
import { useConnectionsStore } from '../../connections/store';
import { useRegionListStore } from '../region-store';
import { useTablesStore } from '../store';

type Source = 'blank' | 'single' | 'copy' | 'paste';
const SOURCES: { id: Source; title: string; hint: string }[] = [
  { id: 'blank', title: 'Blank', hint: 'Start with nothing' },
  { id: 'single', title: 'Single-table design', hint: 'PK/SK, GSI1PK/GSI1SK, TTL' },
  { id: 'copy', title: 'Copy a table', hint: 'From any connection' },
  { id: 'paste', title: 'Paste JSON', hint: 'CreateTable or CloudFormation' },
];

/** The form's starting points; each replaces the definition and may leave notes about what it could not carry. */
export function StartFrom({
  connection,
  onStart,
}: {
  connection: Connection;
  onStart(definition: TableDefinition, notes: string[]): void;
}) {
  const [source, setSource] = useState<Source>('blank');
  const choose = (next: Source): void => {
    setSource(next);
    if (next === 'blank') onStart(blankDefinition(), []);
    if (next === 'single') onStart(singleTableDefinition(), []);
  };
  return (
    <div className="start-from">
      <span className="field-label" id="start-from-label">
        Start from
      </span>
      <div className="segmented segmented-4" role="radiogroup" aria-labelledby="start-from-label">
        {SOURCES.map((s) => (
          <button
            key={s.id}
            type="button"
            role="radio"
            aria-checked={source === s.id}
            className={`segment${source === s.id ? ' is-selected' : ''}`}
            onClick={() => choose(s.id)}
          >
            <span className="segment-title">{s.title}</span>
            <span className="segment-hint">{s.hint}</span>
          </button>
        ))}
      </div>
      {source === 'copy' ? <CopyFrom connection={connection} onStart={onStart} /> : null}
      {source === 'paste' ? <PasteFrom onStart={onStart} /> : null}
    </div>
  );
}

function CopyFrom({
  connection,
  onStart,
}: {
  connection: Connection;
  onStart(definition: TableDefinition, notes: string[]): void;
}) {
  const connections = useConnectionsStore((state) => state.connections);
  const chosenRegions = useRegionListStore((state) => state.chosen);
  // Each connection, and each other region its table list shows (`<id>@<region>`).
  const sources = connections.flatMap((c) => [
    { id: c.id, label: c.label },
    ...(isSingleRegion(c) ? [] : (chosenRegions[c.id] ?? []))
      .filter((region) => region !== c.region)
      .map((region) => ({ id: regionalConnectionId(c.id, region), label: `${c.label} · ${region}` })),
  ]);
  const [from, setFrom] = useState(connection.id);
  const list = useTablesStore((state) => state.lists[from]);
  const loadList = useTablesStore((state) => state.loadList);
  const [table, setTable] = useState('');
  const [error, setError] = useState<string>();
  const [isBusy, setIsBusy] = useState(false);
  const names = list?.value?.map((t) => t.name) ?? [];
  useEffect(() => {
    if (!list) void loadList(from);
  }, [list, loadList, from]);

  const copy = async (): Promise<void> => {
    setIsBusy(true);
    setError(undefined);
    const described = await call('tables:describe', { connectionId: from, table });
    setIsBusy(false);
    if (!described.ok) {
      setError(described.error.message);
      return;
    }
    const result = definitionFromDescription(described.value.raw, `${table}-copy`);
    const tags = await call('tables:tags', { connectionId: from, table });
    if (tags.ok && tags.value.supported) result.definition.tags = tags.value.tags;
    onStart(result.definition, result.notes);
  };

  return (
    <div className="start-from-detail">
      <Select
        label="Copy from connection"
        value={from}
        options={sources.map((s) => s.id)}
        labelOf={(id) => sources.find((s) => s.id === id)?.label ?? id}
        onChange={(id) => {
          setFrom(id);
          setTable('');
        }}
      />
      <Select
        label="Table to copy"
        value={table}
        options={['', ...names]}
        labelOf={(name) =>
          name === '' ? (list?.status === 'loading' ? 'Loading tables…' : 'Choose a table') : name
        }
        onChange={setTable}
      />
      <Button size="sm" disabled={table === ''} isBusy={isBusy} onClick={() => void copy()}>
        Copy definition
      </Button>
      <FieldError message={error} />
    </div>
  );
}

function PasteFrom({ onStart }: { onStart(definition: TableDefinition, notes: string[]): void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const read = (): void => {
    try {
      const result = parseTableText(text);
      setError(undefined);
      onStart(result.definition, [`Read as ${result.source}.`, ...result.notes]);
    } catch (problem) {
      if (!(problem instanceof ImportProblem)) throw problem;
      setError(problem.message);
    }
  };
  return (
    <div className="start-from-detail is-column">
      <textarea
        className="input paste-area"
        aria-label="CreateTable JSON or CloudFormation resource"
        placeholder='{"TableName": "…", "KeySchema": […]} or a template with an AWS::DynamoDB::Table resource'
        rows={6}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <div>
        <Button size="sm" onClick={read} disabled={text.trim() === ''}>
          Read into the form
        </Button>
      </div>
      <FieldError message={error} />
    </div>
  );
}
