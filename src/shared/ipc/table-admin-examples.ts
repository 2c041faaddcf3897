import { singleTableDefinition } from '../dynamo/table-definition';
import type { ChannelExample } from './examples';
import type { streamChannels } from './streams';
import type { tableAdminChannels } from './table-admin';
import type { tableRegionChannels } from './table-regions';

type TableAdminExamples = {
  [
    C in keyof typeof tableAdminChannels | keyof typeof streamChannels | keyof typeof tableRegionChannels
  ]: ChannelExample<C>;
};

/** docs/API.md examples for creating and changing tables. */
export const tableAdminExamples: TableAdminExamples = {
  'tables:listRegions': {
    summary:
      'Lists the tables of several regions of one connection in parallel (every region when `regions` is absent), each with its description.',
    input: {
      connectionId: 'prod-account',
      requestId: 'regions_4Tz8pQ1c',
      regions: ['eu-west-1', 'us-east-1'],
    },
    output: { started: true, regions: ['eu-west-1', 'us-east-1'] },
    notes:
      "Progress events say how many regions answered; `done` carries `{ regions: [{ region, tables?, isNotEnabled?, error? }] }`. A region that fails has its `error` (the AWS error name as `code`, a sentence as `message`) and the others still list; an opt-in region the account has not enabled is `isNotEnabled`, not an error. A connection with its own endpoint (DynamoDB Local, the playground) is one region: `regions` is then the connection's own. `ops:cancel` ends it with `cancelled`.",
  },
  'tables:create': {
    summary:
      "Creates a table from the form's definition (keys, billing, indexes, stream, TTL, protection, class, tags) and follows it until it and its indexes are ACTIVE.",
    input: {
      connectionId: 'playground',
      requestId: 'create_7Hq2LmPz',
      definition: singleTableDefinition('Orders'),
    },
    output: { started: true },
    notes:
      "Refused with ReadOnlyConnection on a read-only connection and with InvalidInput (details.fields: every field's problem) before anything is sent. Progress events carry the table's status in `message`; `done` carries `{ summary, notes }`, where notes say what the endpoint accepted but did not apply (DynamoDB Local ignores table class and tags). `ops:cancel` stops the following, not the creation.",
  },
  'tables:update': {
    summary:
      'Makes one change to a table (billing and capacity, add or delete a GSI, TTL, stream, deletion protection, table class, tags, PITR) and follows it until the table is ACTIVE again.',
    input: {
      connectionId: 'playground',
      table: 'DynoTableSample',
      requestId: 'update_Rk81vQxe',
      change: {
        kind: 'addIndex',
        index: {
          name: 'GSI2',
          partitionKey: { name: 'GSI2PK', type: 'S' },
          sortKey: { name: 'GSI2SK', type: 'S' },
          projection: { type: 'KEYS_ONLY' },
        },
      },
    },
    output: { started: true },
    notes:
      'An added index is followed until ACTIVE (progress says when it backfills), a deleted one until it is gone. A change DynamoDB Local cannot make (PITR, tags, table class) is refused with NotSupported and a sentence; LimitExceededException and ResourceInUseException keep their names with what to do.',
  },
  'tables:delete': {
    summary:
      'Deletes a table after its name was typed (and, on a production connection, a second confirmation), then follows it until DynamoDB no longer describes it.',
    input: {
      connectionId: 'playground',
      table: 'Orders',
      requestId: 'delete_Qw3rTy12',
      confirmTable: 'Orders',
    },
    output: { started: true },
    notes:
      'Refused before anything is sent: ReadOnlyConnection; DeletionProtected while deletion protection is on (turn it off with tables:update first, a separate step); ConfirmationRequired when the typed name differs or a production connection lacks confirmProduction.',
  },
  'tables:purgePreview': {
    summary:
      'What purging a table (deleting every item, keeping the table) will consume: the approximate item count and size, read and write units, the time at provisioned capacity, and the comparison with delete-and-recreate.',
    input: { connectionId: 'playground', table: 'Orders' },
    output: {
      itemCount: 50000,
      sizeBytes: 12_500_000,
      readUnits: 1526,
      writeUnits: 50000,
      sentences: [
        'DynamoDB reports about 50,000 items (11.9 MB); on AWS it refreshes this count about every six hours, so the purge reads the table to find every key.',
      ],
    },
  },
  'tables:purge': {
    summary:
      'Deletes every item of a table and keeps the table (its ARN, stream, tags and settings): keys are scanned a chunk at a time and deleted eight at a time, each delete conditional on the item still existing.',
    input: {
      connectionId: 'playground',
      table: 'Orders',
      requestId: 'purge_Zx81Lm0q',
      confirmTable: 'Orders',
      maxPerSecond: 500,
    },
    output: { started: true },
    notes:
      'Refused before anything is sent: ReadOnlyConnection; ConfirmationRequired when the typed name differs or a production connection lacks confirmProduction. The connection is checked again before every chunk of deletes. Progress carries items (deleted), failed, perSecond and etaSeconds; `done` carries `{ table, deleted, alreadyGone, failed, failures, readUnits, isEmpty }`, and `setAside` when a record of an earlier purge of the table could not be read as the stopped purges of the emptied table were forgotten (renamed, kept, each with its sentence). `ops:cancel` stops after the deletes in flight; starting again resumes, since a new Scan finds only what is left. Open result sets of the table drop the deleted rows.',
  },
  'tables:tags': {
    summary: "A table's tags, or `supported: false` where the endpoint has no tagging (DynamoDB Local).",
    input: { connectionId: 'prod-eu', table: 'Orders' },
    output: { supported: true, tags: [{ key: 'team', value: 'payments' }] },
  },
  'streams:tail': {
    summary:
      "Follows a table's DynamoDB stream live: every open shard is read (and the shards that follow a split or a rollover), and new INSERT, MODIFY and REMOVE records arrive as `stream` events with old and new images per the stream's view type.",
    input: { connectionId: 'playground', table: 'Orders', requestId: 'tail_Hx72mQa9', from: 'LATEST' },
    output: {
      started: true,
      streamArn: 'arn:aws:dynamodb:ddblocal:000000000000:table/Orders/stream/2026-12-01T18:00:00.000',
      viewType: 'NEW_AND_OLD_IMAGES',
    },
    notes:
      'Refused with InvalidInput and a sentence when the table has no stream. Each `stream` event carries `records` (eventName, keys, oldImage/newImage as the view type allows, sequenceNumber, at, isTtl) and `shards`, the shards being read. Main keeps no records; `ops:cancel` stops the tail and releases its client and iterators, and it ends cancelled.',
  },
};
