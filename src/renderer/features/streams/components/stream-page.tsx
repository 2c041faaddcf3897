import { useEffect, useMemo, useRef, useState } from 'react';
import type { AppError } from '../../../../shared/ipc';
import { call, newRequestId } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { Select } from '../../../ui/select';
import { TextInput } from '../../../ui/text-input';
import { onOperation } from '../../operations/store';
import type { TableViewProps } from '../../table/tabs';
import {
  emptyBuffer,
  matches,
  MAX_RECORDS,
  receive,
  release,
  type EventName,
  type TailBuffer,
} from '../buffer';
import { StreamRecordCard } from './stream-record-card';

const EVENTS: EventName[] = ['INSERT', 'MODIFY', 'REMOVE'];
const FROM = ['LATEST', 'TRIM_HORIZON'] as const;
type From = (typeof FROM)[number];

/**
 * A live tail of the table's stream: records as they arrive, newest first, with pause, a filter
 * by event type and key, and a bounded buffer. Leaving the tab or Stop ends the tail in main.
 */
export function StreamPage({ connection, table, description }: TableViewProps) {
  const stream = description?.summary.stream;
  const [from, setFrom] = useState<From>('LATEST');
  const [requestId, setRequestId] = useState<string>();
  const [shards, setShards] = useState(0);
  const [buffer, setBuffer] = useState<TailBuffer>(emptyBuffer);
  const [isPaused, setIsPaused] = useState(false);
  const [events, setEvents] = useState<ReadonlySet<EventName>>(() => new Set(EVENTS));
  const [keyText, setKeyText] = useState('');
  const [error, setError] = useState<AppError>();
  // Read by the event listener, which lives as long as the tail, not one render.
  const paused = useRef(false);

  useEffect(() => {
    if (!requestId) return undefined;
    const stop = onOperation(requestId, (event) => {
      if (event.type === 'stream') {
        setShards(event.shards);
        if (event.records.length > 0) setBuffer((current) => receive(current, event.records, paused.current));
      } else if (event.type === 'error') setError(event.error);
      if (event.type === 'done' || event.type === 'cancelled' || event.type === 'error')
        setRequestId(undefined);
    });
    return () => {
      stop();
      // Leaving the tab stops the tail: main lets go of its iterators and client.
      void call('ops:cancel', { requestId });
    };
  }, [requestId]);

  const start = async (): Promise<void> => {
    const id = newRequestId('tail');
    setError(undefined);
    setBuffer(emptyBuffer());
    setIsPaused(false);
    paused.current = false;
    setShards(0);
    setRequestId(id);
    const answer = await call('streams:tail', { connectionId: connection.id, table, requestId: id, from });
    if (!answer.ok) {
      setRequestId(undefined);
      setError(answer.error);
    }
  };
  const togglePause = (): void => {
    if (isPaused) setBuffer(release);
    paused.current = !isPaused;
    setIsPaused(!isPaused);
  };
  const visible = useMemo(
    () => buffer.shown.filter((record) => matches(record, events, keyText)),
    [buffer.shown, events, keyText],
  );

  if (description && !stream?.enabled)
    return (
      <section className="panel stream-panel" aria-label="Stream tail">
        <p className="notice" role="note">
          Streams are off for {table}, so there is nothing to follow. Turn them on in Overview → Change →
          Streams (NEW_AND_OLD_IMAGES shows what each write changed).
        </p>
      </section>
    );
  const isRunning = requestId !== undefined;
  return (
    <section className="panel stream-panel" aria-label="Stream tail">
      <div className="stream-toolbar">
        <Select<From>
          label="Start from"
          value={from}
          options={FROM}
          labelOf={(f) => (f === 'LATEST' ? 'New records from now' : 'Every record still kept (24 h)')}
          onChange={(next) => setFrom(next)}
        />
        {isRunning ? (
          <Button onClick={() => void call('ops:cancel', { requestId })}>Stop</Button>
        ) : (
          <Button variant="primary" onClick={() => void start()}>
            Follow stream
          </Button>
        )}
        <Button disabled={!isRunning} aria-pressed={isPaused} onClick={togglePause}>
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
