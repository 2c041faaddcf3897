import { formatDate } from '../../../ui/format';
import { useEffect, useId, useState } from 'react';
import { type OrmModel, ORM_MODEL_MAX_CHARS } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { useWorkspaceStore } from '../../workspace/store';
import { type ModelSource, useMigrationStore, useMigrationTable } from '../store';
import { STORAGE_TEXT } from './acknowledgement';
import { FilePicker } from './file-picker';

/** The dynotable-orm model file whose date storage the verdicts count, as `scan-migration --model` does. */
export function ModelFile({ connectionId, table }: { connectionId: string; table: string }) {
  const state = useMigrationTable(connectionId, table);
  const loadModel = useMigrationStore((s) => s.loadModel);
  const setModel = useMigrationStore((s) => s.setModel);
  const refuseModel = useMigrationStore((s) => s.refuseModel);
  const [isBusy, setIsBusy] = useState(false);
  const titleId = useId();
  const model = state.model;
  useEffect(() => {
    void loadModel(connectionId, table);
  }, [connectionId, table, loadModel]);

  const give = async (source: ModelSource | undefined) => {
    setIsBusy(true);
    await setModel(connectionId, table, source);
    setIsBusy(false);
  };
  const label = model ? 'Use another dynotable-orm model…' : 'Use a dynotable-orm model…';

  return (
    <section className="mig-model" aria-labelledby={titleId}>
      <h3 id={titleId} className="mig-section-title">
        Models&apos; date storage
      </h3>
      <p className="muted mig-model-hint">
        Each Date attribute counts as stored the way its model says, as with{' '}
        <code>scan-migration --model FILE</code>.
      </p>
      <div className="mig-model-actions">
        <FilePicker
          label={label}
          purpose="model"
          what="a dynotable-orm model file"
          maxChars={ORM_MODEL_MAX_CHARS}
          accept=".ts,.mts,.js,.mjs,text/plain,text/typescript"
          isBusy={isBusy}
          onPicked={give}
          onRefused={(error) => refuseModel(connectionId, table, error)}
        />
        {model ? (
          <Button variant="ghost" disabled={isBusy} onClick={() => void give(undefined)}>
            Remove model
          </Button>
        ) : null}
        <span className="muted mig-model-from">
          The Schema view generates it: format &ldquo;dynotable-orm model&rdquo;, Save to a file.
        </span>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => useWorkspaceStore.getState().setTableView(table, 'schema')}
        >
          Open the Schema view
        </Button>
      </div>
      {state.modelError ? (
        <ErrorMessage compact error={state.modelError} connectionId={connectionId} />
      ) : null}
      {model ? <ModelSummary model={model} /> : null}
    </section>
  );
}

function ModelSummary({ model }: { model: OrmModel }) {
  return (
    <div className="mig-model-summary" role="region" aria-label={`What ${model.fileName} says`}>
      <p>
        Using <strong>{model.fileName}</strong>{' '}
        <span className="muted">
          since {formatDate(model.at)} ·{' '}
          {model.dateStorage.length === 0
            ? 'no Date attributes'
            : `${model.dateStorage.length} Date ${model.dateStorage.length === 1 ? 'attribute' : 'attributes'}`}{' '}
          · an acknowledgement of the same path wins over it
        </span>
      </p>
      <table className="data-table is-compact mig-model-table">
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Dates stored as</th>
            <th scope="col">Date attributes</th>
            <th scope="col">Attributes</th>
          </tr>
        </thead>
        <tbody>
          {model.entities.map((entity, i) => (
            <tr key={`${entity.name}-${i}`}>
              <td>{entity.name}</td>
              <td>
                {STORAGE_TEXT[entity.dateStorage]}{' '}
                <span className="muted">
                  {entity.isStorageSaid ? '(defaultDateStorage)' : "(the ORM's default)"}
                </span>
              </td>
              <td>
                {entity.dates.length === 0 ? (
                  <span className="muted">none</span>
                ) : (
                  entity.dates.map((path) => (
                    <code key={path} className="mig-model-date">
                      {path}
                    </code>
                  ))
                )}
              </td>
              <td className="mig-model-attributes">{entity.attributes.join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
