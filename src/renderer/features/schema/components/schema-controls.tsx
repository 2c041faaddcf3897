import { useState } from 'react';
import type { SchemaScanSummary } from '../../../../shared/ipc';
import { ScanPacingFields, useScanPacing } from '../../migration/components/scan-pacing-fields';
import { Button } from '../../../ui/button';
import type { SchemaStartOptions } from '../store';
import { countOf } from '../../../ui/format';

interface SchemaControlsProps {
  /** Top-level attributes that could name an entity (strings seen in the last read). */
  typeAttributes: string[];
  resumable?: SchemaScanSummary;
  isBusy: boolean;
  onStart(options: SchemaStartOptions): void;
}

/** How to read: a sample over segments or a full scan (paced), and how to group entities. */
export function SchemaControls({ typeAttributes, resumable, isBusy, onStart }: SchemaControlsProps) {
  const [mode, setMode] = useState<'sample' | 'full'>('sample');
  const [sampleSize, setSampleSize] = useState(1000);
  const [sampleSegments, setSampleSegments] = useState(40);
  const pacing = useScanPacing();
  const { segments, limit } = pacing;
  const [groupBy, setGroupBy] = useState('');
  const typeAttribute = groupBy === '' ? undefined : groupBy;
  const isValid =
    mode === 'sample'
      ? sampleSize >= 10 && sampleSize <= 100_000 && sampleSegments >= 1 && sampleSegments <= 1000
      : pacing.isValid;

  return (
    <div className="mig-controls schema-controls">
      <fieldset className="schema-mode">
        <legend className="field-label">Read</legend>
        <label>
          <input
            type="radio"
            name="schema-mode"
            checked={mode === 'sample'}
            onChange={() => setMode('sample')}
          />{' '}
          Sample
        </label>
        <label>
          <input type="radio" name="schema-mode" checked={mode === 'full'} onChange={() => setMode('full')} />{' '}
          Full scan
        </label>
      </fieldset>
      {mode === 'sample' ? (
        <>
          <label className="mig-control">
            <span className="field-label">Items</span>
            <input
              className="input"
              type="number"
              min={10}
              max={100000}
              value={sampleSize}
              onChange={(e) => setSampleSize(Number(e.target.value))}
            />
          </label>
          <label
            className="mig-control"
            title="DynamoDB splits a Scan into segments; the sample reads the first page of this many, chosen at random, so it spreads over the whole table."
          >
            <span className="field-label">Spread over (Scan segments)</span>
            <input
              className="input"
              type="number"
              min={1}
              max={1000}
              value={sampleSegments}
              onChange={(e) => setSampleSegments(Number(e.target.value))}
            />
          </label>
        </>
      ) : (
        <ScanPacingFields pacing={pacing} />
      )}
      {/* Entities by and the buttons wrap as one group: at 1024 px a full scan's fields filled
          the line and Scan table was left alone under them. */}
      <div className="schema-controls-end">
        <label
          className="mig-control"
          title="How items are told apart as entities: by the start of their key values (USER#…, ORDER#…), as SQL's entity views are, or by an attribute that names the type."
        >
          <span className="field-label">Entities by</span>
          <select className="input" value={groupBy} onChange={(e) => setGroupBy(e.target.value)}>
            <option value="">Start of the key (USER#…), as SQL does</option>
            {typeAttributes.map((name) => (
              <option key={name} value={name}>
                Attribute {name}
              </option>
            ))}
          </select>
        </label>
        <Button
          variant="primary"
          disabled={!isValid || isBusy}
          onClick={() =>
            onStart(
              mode === 'sample'
                ? { mode, sampleSize, segments: sampleSegments, typeAttribute }
                : { mode, segments, limit, typeAttribute },
            )
          }
        >
          {mode === 'sample' ? 'Sample' : 'Scan table'}
        </Button>
        {resumable ? (
          <Button
            disabled={isBusy}
            onClick={() => onStart({ mode: 'full', limit, resumeScanId: resumable.scanId })}
          >
            Resume full scan ({countOf(resumable.itemsScanned, 'item')} read)
          </Button>
        ) : null}
      </div>
    </div>
  );
}
