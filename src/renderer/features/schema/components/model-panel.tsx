import { useState } from 'react';
import type { SchemaReport } from '../../../../shared/ipc';
import { generateModel, type ModelFormat, scopeOf } from '../../../../shared/schema/model-gen';
import { generateOrmModel } from '../../../../shared/schema/orm-model';
import { Button } from '../../../ui/button';
import { downloadText } from '../../../ui/download';

type PanelFormat = ModelFormat | 'orm';

interface FormatChoice {
  id: PanelFormat;
  label: string;
  ext: string;
  mime: string;
  hint: string;
}

const TS_FORMAT: FormatChoice = {
  id: 'ts',
  label: 'TypeScript type',
  ext: 'ts',
  mime: 'text/plain',
  hint: 'An interface of the items as the AWS SDK v3 unmarshall() gives them (sets as Set, binary as Uint8Array).',
};

const FORMATS: FormatChoice[] = [
  TS_FORMAT,
  {
    id: 'zod',
    label: 'Zod schema',
    ext: 'ts',
    mime: 'text/plain',
    hint: 'A Zod schema that checks items at run time, in the form unmarshall() gives them.',
  },
  {
    id: 'json-schema',
    label: 'JSON Schema',
    ext: 'schema.json',
    mime: 'application/json',
    hint: 'A JSON Schema (2020-12) of the items as JSON, for validators in any language.',
  },
  {
    id: 'orm',
    label: 'dynotable-orm model',
    ext: 'model.ts',
    mime: 'text/plain',
    hint: 'dynotable-orm is the ORM that teams leaving dynamoose move to (see the Pre-flight tab). This model tells it how this table stores its data (date formats, dotted names), so it reads the items as they are.',
  },
];

/** A model of the shown items (all, or one entity), generated from what the read found. */
export function ModelPanel({ report, entity }: { report: SchemaReport; entity: string }) {
  const [format, setFormat] = useState<PanelFormat>('ts');
  const [copied, setCopied] = useState(false);
  const scope = scopeOf(report, entity || undefined);
  const chosen = FORMATS.find((f) => f.id === format) ?? TS_FORMAT;
  const source = `a ${report.sampled ? 'sample' : 'scan'} of ${report.table}`;
  const text =
    format === 'orm'
      ? generateOrmModel(report, entity || undefined, source)
      : generateModel(scope, format, source);
  return (
    <section className="panel" aria-labelledby="schema-model-title">
      <h2 id="schema-model-title" className="panel-title">
        Model of {scope.name}
      </h2>
      <div className="mig-panel-body">
        <div className="mig-controls">
          <label className="mig-control">
            <span className="field-label">Format</span>
            <select
              className="input"
              value={format}
              onChange={(e) => setFormat(e.target.value as PanelFormat)}
            >
              {FORMATS.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.label}
                </option>
              ))}
            </select>
          </label>
          <Button
            onClick={() =>
              void navigator.clipboard.writeText(text).then(
                () => setCopied(true),
                () => setCopied(false),
              )
            }
          >
            {copied ? 'Copied' : 'Copy'}
          </Button>
          <Button onClick={() => downloadText(`${scope.name}.${chosen.ext}`, chosen.mime, text)}>
            Save to a file
          </Button>
        </div>
        <p className="muted small" id="schema-model-hint">
          {chosen.hint}
        </p>
        <pre
          className="schema-model"
          aria-label={`${chosen.label} of ${scope.name}`}
          aria-describedby="schema-model-hint"
          tabIndex={0}
        >
          {text}
        </pre>
      </div>
    </section>
  );
}
