import {
  DescribeStreamCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type DynamoDBStreamsClient,
  type _Record as SdkStreamRecord,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { StreamRecord } from '../../../shared/ipc/stream-record';
import type { OperationOutcome, OperationRun } from '../../core/operations';
import { fromSdkItem } from '../marshal';
import { sleep } from '../../core/retry';
import { withBackoff } from '../../core/retry';

/** Records per GetRecords call (DynamoDB's own maximum is 1000). */
const RECORDS_PER_CALL = 500;
/** An idle shard is asked again after this; AWS advises no more than four calls per second per shard. */
const IDLE_POLL_MS = 1_000;
/** New shards (a split, or the next shard after four hours) are looked for this often. */
const REDISCOVER_MS = 10_000;
/** DescribeStream pages read at most, so a huge stream history is not listed forever. */
const MAX_SHARD_PAGES = 20;
/** Shards followed at once: a table's stream rarely has more open; beyond this they wait. */
const MAX_SHARDS = 32;

export interface TailJob {
  streamArn: string;
  from: 'LATEST' | 'TRIM_HORIZON';
}

/**
 * Follows every open shard of a stream until cancelled: GetShardIterator (LATEST or
 * TRIM_HORIZON), then GetRecords on each iterator, passing records on as `stream` events.
 * A shard that closes (its iterator runs out) is dropped, and its children are found by the
 * next DescribeStream and read from their start, so nothing between them is skipped.
 * Nothing is kept: each call's records are sent on and forgotten.
 */
export async function tailStream(
  streams: DynamoDBStreamsClient,
  job: TailJob,
  run: OperationRun,
): Promise<OperationOutcome<'streams:tail'>> {
  const { signal } = run;
  const iterators = new Map<string, string>();
  const finished = new Set<string>();
  let received = 0;
  let lastDiscovery = 0;
  let isFirstDiscovery = true;

  const discover = async (): Promise<void> => {
    const shards = await listShards(streams, job.streamArn, signal);
    for (const shard of shards) {
      const id = shard.ShardId;
      if (!id || iterators.has(id) || finished.has(id) || iterators.size >= MAX_SHARDS) continue;
      const isOpen = !shard.SequenceNumberRange?.EndingSequenceNumber;
      // At the start LATEST needs only the open shards; a shard found later is new, read from its start.
      if (isFirstDiscovery && job.from === 'LATEST' && !isOpen) {
        finished.add(id);
        continue;
      }
      if (!isFirstDiscovery && shard.ParentShardId && iterators.has(shard.ParentShardId)) continue;
      const type = isFirstDiscovery ? job.from : 'TRIM_HORIZON';
      const answer = await streams.send(
        new GetShardIteratorCommand({ StreamArn: job.streamArn, ShardId: id, ShardIteratorType: type }),
        { abortSignal: signal },
      );
      if (answer.ShardIterator) iterators.set(id, answer.ShardIterator);
    }
    isFirstDiscovery = false;
    lastDiscovery = Date.now();
  };

  try {
    await discover();
    run.emit({ type: 'stream', records: [], shards: iterators.size });
    while (!signal.aborted) {
      let got = 0;
      for (const [shardId, iterator] of [...iterators]) {
        const answer = await withBackoff(
          () =>
            streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: RECORDS_PER_CALL }), {
              abortSignal: signal,
            }),
          { signal },
        );
        const records = (answer.Records ?? []).map((r) => toRecord(r, shardId));
        if (answer.NextShardIterator) iterators.set(shardId, answer.NextShardIterator);
        else {
          iterators.delete(shardId);
          finished.add(shardId);
          lastDiscovery = 0;
        }
        if (records.length > 0) {
          got += records.length;
          received += records.length;
          run.emit({ type: 'stream', records, shards: iterators.size });
        }
      }
      if (Date.now() - lastDiscovery >= REDISCOVER_MS) await discover();
      if (got === 0) await sleep(IDLE_POLL_MS, signal);
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
  iterators.clear();
  return { progress: { items: received, pages: 0, consumedCapacity: 0 } };
}

async function listShards(
  streams: DynamoDBStreamsClient,
  arn: string,
  signal: AbortSignal,
): Promise<Shard[]> {
  const shards: Shard[] = [];
  let start: string | undefined;
  for (let page = 0; page < MAX_SHARD_PAGES; page++) {
    const answer = await streams.send(
      new DescribeStreamCommand({ StreamArn: arn, ExclusiveStartShardId: start }),
      { abortSignal: signal },
    );
    shards.push(...(answer.StreamDescription?.Shards ?? []));
    start = answer.StreamDescription?.LastEvaluatedShardId;
    if (!start) break;
  }
  return shards;
}

const item = (image: Record<string, unknown> | undefined) =>
  image ? fromSdkItem(image as Record<string, SdkValue>) : undefined;

function toRecord(record: SdkStreamRecord, shardId: string): StreamRecord {
  const data = record.dynamodb;
  const name = record.eventName;
  const oldImage = item(data?.OldImage);
  const newImage = item(data?.NewImage);
  return {
    eventId: record.eventID ?? '',
    eventName: name === 'INSERT' || name === 'REMOVE' ? name : 'MODIFY',
    sequenceNumber: data?.SequenceNumber ?? '',
    ...(data?.ApproximateCreationDateTime ? { at: data.ApproximateCreationDateTime.toISOString() } : {}),
    keys: item(data?.Keys) ?? {},
    ...(oldImage ? { oldImage } : {}),
    ...(newImage ? { newImage } : {}),
    ...(data?.SizeBytes === undefined ? {} : { sizeBytes: data.SizeBytes }),
    ...(record.userIdentity?.PrincipalId === 'dynamodb.amazonaws.com' ? { isTtl: true } : {}),
    shardId,
  };
}
