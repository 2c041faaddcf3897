import { useState } from 'react';
import type { AppError, Connection } from '../../../shared/ipc';
import { call, newRequestId } from '../../ipc/client';
import { Button } from '../../ui/button';
import { ErrorMessage } from '../../ui/error-message';
import { Select } from '../../ui/select';
import { TextInput } from '../../ui/text-input';
import { FormRow, RowField } from '../../ui/form-row';
import { BucketFolderField } from './bucket-folder-field';

const kinds = ['full', 'incremental'] as const;
const formats = ['DYNAMODB_JSON', 'ION'] as const;

/** “New export”: where in S3, which format, the whole table or the changes since a time. */
export function ExportForm({
  connection,
  table,
  isDisabled,
  onStarted,
}: {
  connection: Connection;
  table: string;
  isDisabled: boolean;
  onStarted(requestId: string, bucket: string): void;
}) {
  const [bucket, setBucket] = useState('');
  const [prefix, setPrefix] = useState('');
  const [format, setFormat] = useState<(typeof formats)[number]>('DYNAMODB_JSON');
  const [kind, setKind] = useState<(typeof kinds)[number]>('full');
  const [since, setSince] = useState('');
  const [error, setError] = useState<AppError>();

  const start = async () => {
    setError(undefined);
    const requestId = newRequestId('export');
    const from = kind === 'incremental' && since ? new Date(since) : undefined;
    const answer = await call('exports:start', {
      connectionId: connection.id,
      table,
      requestId,
      bucket: bucket.trim(),
      ...(prefix.trim() ? { prefix: prefix.trim() } : {}),
      format,
      ...(from ? { incremental: { from: from.toISOString(), view: 'NEW_AND_OLD_IMAGES' as const } } : {}),
    });
    if (answer.ok) onStarted(requestId, bucket.trim());
    else setError(answer.error);
  };

  return (
    <form
      className="form-group"
      aria-label="New export"
      onSubmit={(event) => {
        event.preventDefault();
        void start();
      }}
    >
      <fieldset className="exports-inner" disabled={isDisabled || connection.readOnly}>
        <legend>New export to S3</legend>
        <FormRow>
          <RowField caption="Bucket">
            <TextInput
              label="Export bucket"
              value={bucket}
              onChange={setBucket}
              placeholder="my-bucket"
              required
            />
          </RowField>
          <BucketFolderField
            label="Folder in the bucket"
            purpose="the export is written under"
            value={prefix}
            onChange={setPrefix}
            placeholder="optional, e.g. exports/nightly"
          />
          <RowField caption="Format">
            <Select
              label="Export format"
              value={format}
              options={formats}
              labelOf={(f: string) => (f === 'ION' ? 'Amazon Ion' : 'DynamoDB JSON')}
              onChange={(value) => setFormat(value)}
            />
          </RowField>
          <RowField caption="What">
            <Select
              label="Export type"
              value={kind}
              options={kinds}
              labelOf={(k: string) => (k === 'full' ? 'The whole table' : 'Changes since…')}
              onChange={(value) => setKind(value)}
            />
          </RowField>
          {kind === 'incremental' ? (
            <RowField caption="Since">
              <input
                className="input"
                type="datetime-local"
                aria-label="Changes since"
                value={since}
                onChange={(event) => setSince(event.target.value)}
                required
              />
            </RowField>
          ) : null}
          <Button type="submit" variant="primary" disabled={!bucket.trim()}>
            Start export
          </Button>
        </FormRow>
      </fieldset>
      {connection.readOnly ? (
        <p className="exports-warning" role="note">
          “{connection.label}” is read-only: DynoTable starts no export through it.
        </p>
      ) : null}
      {error ? <ErrorMessage compact error={error} connectionId={connection.id} /> : null}
    </form>
  );
}
