import { formatDate } from '../../../ui/format';
import { useId, useState } from 'react';
import {
  type Acknowledgement,
  type DateAttributeFinding,
  type DateStorage,
  dateStorageOf,
} from '../../../../shared/ipc';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { downloadText } from '../../../ui/download';
import { useMigrationStore, useMigrationTable } from '../store';

export const STORAGE_TEXT: Record<DateStorage, string> = {
  iso: 'ISO strings',
  seconds: 'epoch seconds',
  millis: 'epoch ms',
};

function when(at: string | undefined): string {
  if (!at) return '';
  return formatDate(at);
}

/** "by maria, Nov 6, 2026, 9:10 AM: reason", from whatever the entry records. */
function provenance(a: Acknowledgement): string {
  const who = [a.by ? `by ${a.by}` : '', when(a.at)].filter(Boolean).join(', ');
  return `${who || 'from the expectations file'}${a.reason ? `: ${a.reason}` : ''}`;
}

interface SettingProps {
  connectionId: string;
  table: string;
  finding: DateAttributeFinding;
}

/**
 * On a Date card: the setting the data calls for, acknowledged (who, when, why) or not yet. A
 * mixed path needs a data fix, so there is nothing to acknowledge; epoch ms needs nothing unless
 * someone acknowledged something else there.
 */
export function SettingAcknowledgement({ connectionId, table, finding }: SettingProps) {
  const state = useMigrationTable(connectionId, table);
  const acknowledge = useMigrationStore((s) => s.acknowledge);
  const [isOpen, setIsOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [isBusy, setIsBusy] = useState(false);
  const reasonId = useId();
  const storage = dateStorageOf(finding);
  const said = state.acknowledgements?.list.find((a) => a.path === finding.path);
  const label = finding.path;

  const send = async (next: { storage?: DateStorage; reason?: string }) => {
    setIsBusy(true);
    const isSaved = await acknowledge(connectionId, table, { path: finding.path, ...next });
    setIsBusy(false);
    if (isSaved) {
      setIsOpen(false);
      setReason('');
    }
  };

  if (said) {
    const isContradicted = storage !== undefined && said.storage !== storage;
    return (
      <div className={`mig-ack${isContradicted ? ' is-contradicted' : ''}`}>
        <p>
          <Badge tone={isContradicted ? 'danger' : 'success'}>acknowledged</Badge>{' '}
          {isContradicted
            ? `as ${STORAGE_TEXT[said.storage]}, but the data holds ${STORAGE_TEXT[storage]}: correct the model or the acknowledgement`
            : `the models store ${STORAGE_TEXT[said.storage]} here`}{' '}
          <span className="muted">({provenance(said)})</span>
        </p>
        <Button
          size="sm"
          variant="ghost"
          isBusy={isBusy}
          aria-label={`Withdraw the acknowledgement of ${label}`}
          onClick={() => void send({})}
        >
          Withdraw
        </Button>
      </div>
    );
  }
  const model = state.model;
  const fromModel = model?.dateStorage.find((d) => d.path === finding.path);
  if (storage === undefined) return null;
  const isModelContradicted = fromModel !== undefined && fromModel.storage !== storage;
  const modelNote =
    model && fromModel ? (
      <p className={isModelContradicted ? 'mig-ack-model is-contradicted' : 'mig-ack-model'}>
        <Badge tone={isModelContradicted ? 'danger' : 'success'}>model</Badge>{' '}
        {model.entities.find((e) => e.dates.includes(finding.path))?.name ?? 'The model'} stores{' '}
        {STORAGE_TEXT[fromModel.storage]} here
        {isModelContradicted
          ? `, but the data holds ${STORAGE_TEXT[storage]}: correct the model, or acknowledge what the data holds`
          : ''}{' '}
        <span className="muted">({model.fileName})</span>
      </p>
    ) : null;
  if (modelNote && (!isModelContradicted || storage === 'millis'))
    return <div className="mig-ack">{modelNote}</div>;
  if (storage === 'millis') return null;
  if (!isOpen)
    return (
      <div className="mig-ack">
        {modelNote}
        <p className="muted">
          Needs a model setting: {STORAGE_TEXT[storage]}
          {storage === 'iso' ? " (defaultDateStorage: 'iso')" : " (storage: 'seconds')"}.
        </p>
        <Button size="sm" aria-label={`Acknowledge the setting for ${label}`} onClick={() => setIsOpen(true)}>
          Acknowledge…
        </Button>
      </div>
    );
  return (
    <form
      className="mig-ack-form"
      aria-label={`Acknowledge the setting for ${label}`}
      onSubmit={(event) => {
        event.preventDefault();
        void send({ storage, reason });
      }}
    >
      <label className="field-label" htmlFor={reasonId}>
        Why: which model stores {STORAGE_TEXT[storage]} at {finding.path}
      </label>
      <textarea
        id={reasonId}
        className="input mig-ack-reason"
        rows={2}
        maxLength={2000}
        required
        value={reason}
        onChange={(event) => setReason(event.target.value)}
      />
      <div className="mig-ack-actions">
        <Button type="submit" size="sm" variant="primary" isBusy={isBusy} disabled={reason.trim() === ''}>
          Acknowledge
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={() => setIsOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** Every acknowledgement of the table (also for paths this scan did not see) and their file. */
export function AcknowledgementList({ connectionId, table }: { connectionId: string; table: string }) {
  const acknowledgements = useMigrationTable(connectionId, table).acknowledgements;
  if (!acknowledgements || acknowledgements.list.length === 0) return null;
  return (
    <section className="mig-acks" aria-labelledby="mig-acks-title">
      <h3 id="mig-acks-title" className="mig-section-title">
        Acknowledged model settings <span className="muted">{acknowledgements.list.length}</span>
      </h3>
      <table className="data-table is-compact mig-acks-table">
        <thead>
          <tr>
            <th scope="col">Path</th>
            <th scope="col">Dates stored as</th>
            <th scope="col">By</th>
            <th scope="col">When</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {acknowledgements.list.map((a) => (
            <tr key={a.path}>
              <td>
                <code>{a.path}</code>
              </td>
              <td>{STORAGE_TEXT[a.storage]}</td>
              <td>{a.by ?? ''}</td>
              <td>{when(a.at)}</td>
              <td>{a.reason ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted mig-acks-cli">
        CI reads the same file: <code>dynotable scan-migration --table {table} --expectations FILE</code>.
        Keep a copy next to the models.{' '}
        <Button
          size="sm"
          onClick={() =>
            downloadText(`${table}.expectations.json`, 'application/json', acknowledgements.content)
          }
        >
          Download expectations file
        </Button>
      </p>
      <p className="muted mig-acks-file">
        Kept in <code>{acknowledgements.file}</code>
      </p>
    </section>
  );
}
