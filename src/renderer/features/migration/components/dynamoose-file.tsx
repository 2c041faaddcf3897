import { useEffect, useId, useState } from 'react';
import { DYNAMOOSE_FILE_MAX_CHARS } from '../../../../shared/ipc/migration-dynamoose';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { type ModelSource, useMigrationStore, useMigrationTable } from '../store';
import { FilePicker } from './file-picker';

/**
 * The dynamoose schema file the table was written with, as `scan-migration --dynamoose-model`
 * takes it: read as text, never run. What it says shows at once (the review below the report);
 * what the data holds against it needs a scan, and every scan from then on checks it.
 */
export function DynamooseFile({ connectionId, table }: { connectionId: string; table: string }) {
  const state = useMigrationTable(connectionId, table);
  const load = useMigrationStore((s) => s.loadDynamoose);
  const setDynamoose = useMigrationStore((s) => s.setDynamoose);
  const refuse = useMigrationStore((s) => s.refuseDynamoose);
  const [isBusy, setIsBusy] = useState(false);
  const titleId = useId();
  const kept = state.dynamoose;
  useEffect(() => {
    void load(connectionId, table);
  }, [connectionId, table, load]);
  const give = async (source: ModelSource | undefined) => {
    setIsBusy(true);
    await setDynamoose(connectionId, table, source);
    setIsBusy(false);
  };
  const scanned = state.report?.dynamoose?.file === kept?.fileName;

  return (
    <section className="mig-model" aria-labelledby={titleId}>
      <h3 id={titleId} className="mig-section-title">
        dynamoose schema file
      </h3>
      <p className="muted mig-model-hint">
        The models the table was written with: read as text, never run, as with{' '}
        <code>scan-migration --dynamoose-model FILE</code>.
      </p>
      <div className="mig-model-actions">
        <FilePicker
          label={kept ? 'Use another dynamoose schema file…' : 'Use a dynamoose schema file…'}
          purpose="dynamoose"
          what="a dynamoose schema file"
          maxChars={DYNAMOOSE_FILE_MAX_CHARS}
          accept=".js,.cjs,.mjs,.ts,.mts,.cts,text/plain,text/javascript,text/typescript"
          isBusy={isBusy}
          onPicked={give}
          onRefused={(error) => refuse(connectionId, table, error)}
        />
        {kept ? (
          <Button variant="ghost" disabled={isBusy} onClick={() => void give(undefined)}>
            Remove schema file
          </Button>
        ) : null}
      </div>
      {state.dynamooseError ? (
        <ErrorMessage compact error={state.dynamooseError} connectionId={connectionId} />
      ) : null}
      {kept ? (
        <p className="mig-dyn-status">
          Using <strong>{kept.fileName}</strong>{' '}
          <span className="muted">
            · {kept.review.models.map((m) => m.name).join(', ')} ·{' '}
            {scanned
              ? 'the open report checked the items against it'
              : 'scan the table to check the items against it'}
          </span>
        </p>
      ) : null}
    </section>
  );
}
