import { useMemo, useState } from 'react';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { Select } from '../../../ui/select';
import { TextInput } from '../../../ui/text-input';
import type { TableViewProps } from '../../table/tabs';
import { matches, MAX_RECORDS, type EventName } from '../buffer';
import { useStreamTail, useStreamTailsStore, type TailStart } from '../store';
import { StreamRecordCard } from './stream-record-card';
import { TurnOnStream } from './turn-on-stream';

const EVENTS: EventName[] = ['INSERT', 'MODIFY', 'REMOVE'];
const FROM: readonly TailStart[] = ['LATEST', 'TRIM_HORIZON'];

/**
 * A live tail of the table's stream: records as they arrive, newest first, with pause, a filter
 * by event type and key, and a bounded buffer. The tail lives in the streams store, so it goes on
 * while the user works on Items (their writes show up here) and ends on Stop or when the table's
 * tab is closed.
 */
export function StreamPage({ connection, table, description }: TableViewProps) {
  const stream = description?.summary.stream;
  const tail = useStreamTail(connection.id, table);
  const actions = useStreamTailsStore.getState();
  const [events, setEvents] = useState<ReadonlySet<EventName>>(() => new Set(EVENTS));
  const [keyText, setKeyText] = useState('');
  const { buffer, shards, isPaused, error, from } = tail;
  const visible = useMemo(
    () => buffer.shown.filter((record) => matches(record, events, keyText)),
    [buffer.shown, events, keyText],
  );

  if (description && !stream?.enabled)
    return (
      <section className="panel stream-panel" aria-label="Stream tail">
        <TurnOnStream connection={connection} summary={description.summary} />
      </section>
    );
  const isRunning = tail.requestId !== undefined;
  return (
    <section className="panel stream-panel" aria-label="Stream tail">
      <div className="stream-toolbar">
        <Select<TailStart>
          label="Start from"
          value={from}
          options={FROM}
          labelOf={(f) => (f === 'LATEST' ? 'New records from now' : 'Every record still kept (24 h)')}
          onChange={(next) => actions.setFrom(connection.id, table, next)}
        />
        {isRunning ? (
          <Button onClick={() => actions.stop(connection.id, table)}>Stop</Button>
        ) : (
          <Button variant="primary" onClick={() => void actions.start(connection.id, table, from)}>
            Follow stream
          </Button>
        )}
        <Button
          disabled={!isRunning}
          aria-pressed={isPaused}
          onClick={() => actions.togglePause(connection.id, table)}
        >
          {isPaused ? 'Resume' : 'Pause'}
        </Button>
        <span className="toolbar-spacer" />
        <fieldset className="plain-fieldset stream-events" aria-label="Event types shown">
          {EVENTS.map((name) => (
            <label key={name} className="check-label">
              <input
                type="checkbox"
                checked={events.has(name)}
                onChange={(event) => {
                  const next = new Set(events);
                  if (event.target.checked) next.add(name);
                  else next.delete(name);
                  setEvents(next);
                }}
              />
              {name}
            </label>
          ))}
        </fieldset>
        <TextInput
          className="stream-key-filter"
          label="Filter by key"
          placeholder="key contains…"
          value={keyText}
          onChange={setKeyText}
        />
      </div>
      <p className="small muted stream-status" role="status">
        {isRunning
          ? `Following ${shards} shard${shards === 1 ? '' : 's'} of the ${stream?.viewType ?? ''} stream`
          : 'Not following'}
        {` · ${buffer.received.toLocaleString('en-US')} received · ${visible.length} shown`}
        {isPaused ? ` · paused, ${buffer.held.length} new held` : ''}
        {buffer.dropped > 0
          ? ` · keeps the newest ${MAX_RECORDS}, ${buffer.dropped.toLocaleString('en-US')} let go`
          : ''}
      </p>
      {error ? <ErrorMessage error={error} connectionId={connection.id} compact /> : null}
      <div className="stream-records" aria-label="Stream records">
        {visible.map((record) => (
          <StreamRecordCard key={record.eventId || record.sequenceNumber} record={record} />
        ))}
        {visible.length === 0 ? (
          <p className="muted small">
            {isRunning
              ? 'Waiting for changes: write to the table (here or from anywhere) and its records appear.'
              : 'Follow the stream to see inserts, changes and removals as they happen.'}
          </p>
        ) : null}
      </div>
    </section>
  );
}
