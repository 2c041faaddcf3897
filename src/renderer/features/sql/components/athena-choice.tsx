import { formatDate } from '../../../ui/format';
import { useId, useState } from 'react';
import type { AthenaPlan, AthenaSettings } from '../../../../shared/ipc/athena';
import type { AthenaExportChoice } from '../store';
import { Button } from '../../../ui/button';
import { Check } from '../../../ui/check';
import { Field } from '../../../ui/field';
import { TextInput } from '../../../ui/text-input';
import { CapacityUnit } from '../../../ui/capacity-unit';

const n = (value: number): string => Math.round(value).toLocaleString('en-US');
const gb = (bytes: number): string =>
  `${(bytes / 1e9).toLocaleString('en-US', { maximumFractionDigits: bytes < 10e9 ? 2 : 0 })} GB`;
const usd = (value: number): string => `$${value.toFixed(value < 1 ? 4 : 2)}`;

function duration(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${(seconds / 3600).toFixed(1)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

/** How long ago an export's point in time was: within the 24 hours an export is offered for. */
function age(iso: string): string {
  const minutes = Math.max(0, (Date.now() - Date.parse(iso)) / 60_000);
  if (minutes < 90) return `${Math.max(1, Math.round(minutes))} min`;
  return `${Math.round(minutes / 60)} h`;
}

export interface AthenaChoiceProps {
  plan: AthenaPlan;
  /** The settings the last Athena run used, as main remembers them. */
  saved?: AthenaSettings;
  isBusy: boolean;
  /** A new export though a recent one exists; the plan counts it once `isReplanning` is over. */
  freshExport: boolean;
  isReplanning: boolean;
  replanError?: string;
  onFreshExport(fresh: boolean): void;
  onLocal(): void;
  onAthena(settings: AthenaSettings, exportChoice: AthenaExportChoice): void;
  onDismiss(): void;
}

/**
 * The plan's honest choice (issue 17): the statement would scan more than the limit, so the
 * local scan's figures stand next to Athena's and nothing runs until one is picked.
 */
export function AthenaChoice({
  plan,
  saved,
  isBusy,
  freshExport,
  isReplanning,
  replanError,
  onFreshExport,
  onLocal,
  onAthena,
  onDismiss,
}: AthenaChoiceProps) {
  const id = useId();
  const recent = plan.athena.exports[0];
  const [workGroup, setWorkGroup] = useState(saved?.workGroup ?? 'primary');
  const [outputLocation, setOutputLocation] = useState(saved?.outputLocation ?? '');
  const [database, setDatabase] = useState(saved?.database ?? 'dynotable');
  const [exportBucket, setExportBucket] = useState(saved?.exportBucket ?? recent?.bucket ?? '');
  const [agreeExport, setAgreeExport] = useState(false);
  const translation = plan.translation;
  // A recent export covers the statement: reusing it is the default, a fresh one is the choice.
  const canReuse = recent !== undefined && (plan.athena.freshExport === true || !plan.athena.exportNeeded);
  const needsExport = canReuse ? freshExport : plan.athena.exportNeeded;
  const agreed = canReuse ? freshExport : agreeExport;
  const isReady =
    translation?.ok === true &&
    /^s3:\/\/[^/]+/.test(outputLocation) &&
    workGroup.trim() !== '' &&
    (!needsExport || (agreed && exportBucket.trim() !== ''));
  const tables = plan.scannedTables.join(', ');
  // What Run on Athena still waits for, said next to it rather than left to a greyed button.
  const missing = !translation?.ok
    ? undefined
    : !/^s3:\/\/[^/]+/.test(outputLocation)
      ? 'Name the query results location (s3://bucket/prefix/) to run on Athena.'
      : needsExport && exportBucket.trim() === ''
        ? 'Name the export bucket to run on Athena.'
        : needsExport && !agreed
          ? 'Tick the export to run on Athena.'
          : undefined;
  const exportTime = duration(plan.athena.exportSeconds);
  // One field, shown beside the fresh-export box or among the settings, whichever applies.
  const bucketInput = (
    <TextInput
      id={`${id}-bucket`}
      label="Export bucket"
      placeholder="bucket name"
      value={exportBucket}
      onChange={setExportBucket}
    />
  );
  return (
    <section className="athena-choice" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="athena-choice-title">
        This statement would scan {tables} whole: choose how to run it
      </h3>
      <ul className="athena-choice-over">
        {plan.over.map((reason) => (
          <li key={reason}>{reason}.</li>
        ))}
      </ul>
      <div className="athena-choice-paths">
        <div className="athena-path" role="group" aria-label="Local scan">
          <h4>Scan locally</h4>
          <dl>
            <dt>Reads</dt>
            <dd>
              {n(plan.local.items)} items, {gb(plan.local.bytes)}
            </dd>
            <dt>Read capacity</dt>
            <dd>
              {n(plan.local.rcu)} <CapacityUnit unit="RCU" /> (eventually consistent)
            </dd>
            <dt>Time</dt>
            <dd>about {duration(plan.local.seconds)}</dd>
          </dl>
          <p className="sql-faint">Fetches every item into this machine before the statement runs.</p>
        </div>
        <div className="athena-path" role="group" aria-label="Amazon Athena over an export">
          <h4>Amazon Athena over an export</h4>
          <dl>
            <dt>Export</dt>
            <dd>
              {recent && !needsExport
                ? `uses the export of ${formatDate(recent.exportTime)} (${age(recent.exportTime)} old, ${gb(recent.billedSizeBytes)})`
                : recent && canReuse
                  ? `a new one, passing over the export of ${formatDate(recent.exportTime)} (${age(recent.exportTime)} old)`
                  : 'none in the last 24 hours: a new one is needed'}
            </dd>
            <dt>Time</dt>
            <dd aria-live="polite">
              {isReplanning
                ? 'updating the estimate…'
                : plan.athena.exportNeeded
                  ? `about ${exportTime} to export (no read capacity used), then the query`
                  : 'the query alone: the export is ready'}
            </dd>
            <dt>Data scanned</dt>
            <dd>
              up to {gb(plan.athena.scannedBytes)} · about {usd(plan.athena.costUsd)} at $
              {plan.athena.usdPerTb} per TB
            </dd>
          </dl>
          {canReuse ? (
            <div className="athena-fresh">
              <Check checked={freshExport} onChange={onFreshExport} describedBy={`${id}-fresh`}>
                Start a fresh export instead, for today&apos;s data
              </Check>
              {freshExport ? (
                <span className="athena-fresh-bucket">
                  <label htmlFor={`${id}-bucket`}>into bucket</label>
                  {bucketInput}
                </span>
              ) : null}
              <p id={`${id}-fresh`} className="sql-faint">
                The recent export is {age(recent.exportTime)} old: changes made since are not in it.
              </p>
            </div>
          ) : null}
          {replanError ? (
            <p className="sql-warning">The estimate could not be updated: {replanError}</p>
          ) : null}
          {plan.athena.exportsNote ? <p className="sql-warning">{plan.athena.exportsNote}</p> : null}
          <div className="athena-settings">
            <Field label="Workgroup" htmlFor={`${id}-wg`}>
              <TextInput id={`${id}-wg`} label="Workgroup" value={workGroup} onChange={setWorkGroup} />
            </Field>
            <Field label="Glue database" htmlFor={`${id}-db`}>
              <TextInput id={`${id}-db`} label="Glue database" value={database} onChange={setDatabase} />
            </Field>
            <Field label="Query results location" htmlFor={`${id}-out`}>
              <TextInput
                id={`${id}-out`}
                label="Query results location"
                placeholder="s3://bucket/prefix/"
                value={outputLocation}
                onChange={setOutputLocation}
              />
            </Field>
            {needsExport && !canReuse ? (
              <Field label="Export bucket" htmlFor={`${id}-bucket`}>
                {bucketInput}
              </Field>
            ) : null}
          </div>
          {needsExport && !canReuse ? (
            <Check checked={agreeExport} onChange={setAgreeExport}>
              Start an export of {plan.scannedTables.join(', ') || 'the table'} to S3 (turns on point-in-time
              recovery if it is off)
            </Check>
          ) : null}
          {translation?.ok ? (
            <>
              <p className="athena-sql-label" id={`${id}-sql`}>
                The statement as Athena runs it
              </p>
              <pre className="athena-sql" aria-labelledby={`${id}-sql`} tabIndex={0}>
                {translation.sql}
              </pre>
              {translation.notes.map((note) => (
                <p key={note} className="sql-faint">
                  {note}
                </p>
              ))}
            </>
          ) : (
            <p className="sql-warning" role="note">
              {translation?.message ?? 'This statement cannot run on Athena.'}
            </p>
          )}
        </div>
      </div>
      <div className="athena-choice-actions" role="group" aria-label="Choose">
        <Button
          variant="primary"
          disabled={!isReady || isBusy}
          onClick={() =>
            onAthena(
              {
                workGroup: workGroup.trim(),
                outputLocation: outputLocation.trim(),
                database: database.trim(),
                ...(needsExport ? { exportBucket: exportBucket.trim() } : {}),
              },
              canReuse ? { freshExport } : { startExport: needsExport && agreeExport },
            )
          }
        >
          Run on Athena
        </Button>
        <Button onClick={onLocal} disabled={isBusy}>
          Scan locally anyway
        </Button>
        <Button variant="ghost" onClick={onDismiss}>
          Don&apos;t run
        </Button>
        {missing ? <span className="sql-faint">{missing}</span> : null}
      </div>
    </section>
  );
}
