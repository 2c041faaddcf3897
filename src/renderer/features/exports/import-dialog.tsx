import { useState } from 'react';
import type { Connection } from '../../../shared/ipc';
import { Button } from '../../ui/button';
import { typeLabel } from '../../../shared/dynamo/attribute-value';
import { keyTypeSchema, type KeyType } from '../../../shared/dynamo/table-definition';
import { Dialog, DialogActions } from '../../ui/dialog';
import { ErrorMessage } from '../../ui/error-message';
import { Select } from '../../ui/select';
import { TextInput } from '../../ui/text-input';
import { tableSetChanged } from '../tables/table-set';
import { OperationProgress } from '../operations/components/operation-progress';
import { useLongWork } from '../operations/use-long-work';
import { FormRow, RowField } from '../../ui/form-row';
import { BucketFolderField } from './bucket-folder-field';
import { importSummary } from './import-summary';

export interface ImportDefaults {
  bucket: string;
  prefix: string;
  table: string;
  partitionKey: { name: string; type: KeyType };
  sortKey?: { name: string; type: KeyType };
}

const formats = ['DYNAMODB_JSON', 'ION', 'CSV'] as const;
const formatWords: Record<(typeof formats)[number], string> = {
  DYNAMODB_JSON: 'DynamoDB JSON',
  ION: 'Amazon Ion',
  CSV: 'CSV',
};
const compressions = ['GZIP', 'ZSTD', 'NONE'] as const;

/** “Import from S3…”: DynamoDB's ImportTable creates a new table from the objects under a prefix. */
export function ImportDialog({
  connection,
  defaults,
  onClose,
}: {
  connection: Connection;
  defaults: ImportDefaults;
  onClose(): void;
}) {
  const [bucket, setBucket] = useState(defaults.bucket);
  const [prefix, setPrefix] = useState(defaults.prefix);
  const [format, setFormat] = useState<(typeof formats)[number]>('DYNAMODB_JSON');
  const [compression, setCompression] = useState<(typeof compressions)[number]>('GZIP');
  const [table, setTable] = useState(defaults.table);
  const [pkName, setPkName] = useState(defaults.partitionKey.name);
  const [pkType, setPkType] = useState<KeyType>(defaults.partitionKey.type);
  const [skName, setSkName] = useState(defaults.sortKey?.name ?? '');
  const [skType, setSkType] = useState<KeyType>(defaults.sortKey?.type ?? 'S');
  const [title, setTitle] = useState('');
  const importing = useLongWork('imports:start', {
    prefix: 'import',
    // DynamoDB makes the table as the import starts, so the table list and SQL's catalog learn of
    // it at any ending the import had, also when this dialog was closed while it ran.
    followUp: (ending) => {
      if (ending.type !== 'failed' || !ending.isRefused) tableSetChanged(connection.id);
    },
  });
  const { ending, isRunning, requestId } = importing;
  const result = ending?.type === 'done' ? ending.value : undefined;
  const error = ending?.type === 'failed' ? ending.error : undefined;

  const start = async (): Promise<void> => {
    setTitle(`Importing into ${table.trim()}`);
    await importing.start({
      connectionId: connection.id,
      bucket: bucket.trim(),
      prefix: prefix.trim(),
      format,
      compression,
      table: table.trim(),
      partitionKey: { name: pkName.trim(), type: pkType },
      ...(skName.trim() ? { sortKey: { name: skName.trim(), type: skType } } : {}),
    });
  };

  const canStart =
    !isRunning && !connection.readOnly && bucket.trim() !== '' && table.trim() !== '' && pkName.trim() !== '';
  return (
    <Dialog
      title="Import from S3 into a new table"
      width="lg"
      onClose={onClose}
      onEnter={canStart ? () => void start() : undefined}
      footer={
        <DialogActions
          closeLabel={
            isRunning ? 'Close (the import goes on in AWS)' : ending === undefined ? 'Cancel' : 'Close'
          }
          onClose={onClose}
          primary={
            <Button variant="primary" disabled={!canStart} isBusy={isRunning} onClick={() => void start()}>
              Start import
            </Button>
          }
        />
      }
    >
      <div className="exports-form">
        <p className="exports-note">
          DynamoDB creates the table and loads every object under the prefix into it; the import uses no write
          capacity.
        </p>
        {connection.readOnly ? (
          <p className="exports-warning" role="note">
            “{connection.label}” is read-only: DynoTable starts no import through it.
          </p>
        ) : null}
        <fieldset className="form-group" disabled={isRunning}>
          <legend>From S3</legend>
          <FormRow>
            <RowField caption="Bucket">
              <TextInput label="Source bucket" value={bucket} onChange={setBucket} placeholder="my-bucket" />
            </RowField>
            <BucketFolderField
              label="Source folder in the bucket"
              purpose="the files to import are under"
              value={prefix}
              onChange={setPrefix}
              placeholder="exports/data/"
            />
          </FormRow>
          <FormRow>
            <RowField caption="Format">
              <Select
                label="Input format"
                value={format}
                options={formats}
                labelOf={(f) => formatWords[f]}
                onChange={(value) => setFormat(value)}
              />
            </RowField>
            <RowField caption="Compression">
              <Select
                label="Compression"
                value={compression}
                options={compressions}
                onChange={(value) => setCompression(value)}
              />
            </RowField>
          </FormRow>
        </fieldset>
        <fieldset className="form-group" disabled={isRunning}>
          <legend>New table</legend>
          <RowField caption="Table name" grow>
            <TextInput label="New table name" value={table} onChange={setTable} />
          </RowField>
          <FormRow>
            <RowField caption="Partition key">
              <TextInput label="Partition key name" value={pkName} onChange={setPkName} />
            </RowField>
            <RowField caption="Type">
              <Select
                label="Partition key type"
                value={pkType}
                options={keyTypeSchema.options}
                labelOf={typeLabel}
                onChange={(value) => setPkType(value)}
              />
            </RowField>
            <RowField caption="Sort key (optional)">
              <TextInput label="Sort key name" value={skName} onChange={setSkName} placeholder="none" />
            </RowField>
            <RowField caption="Type">
              <Select
                label="Sort key type"
                value={skType}
                options={keyTypeSchema.options}
                labelOf={typeLabel}
                onChange={(value) => setSkType(value)}
              />
            </RowField>
          </FormRow>
        </fieldset>
        {error ? <ErrorMessage compact error={error} connectionId={connection.id} /> : null}
        {requestId ? (
          <OperationProgress requestId={requestId} label={title} cancelLabel="Stop following" />
        ) : null}
        {result ? (
          <p className="exports-done" role="status">
            {importSummary(result)}
          </p>
        ) : null}
      </div>
    </Dialog>
  );
}
