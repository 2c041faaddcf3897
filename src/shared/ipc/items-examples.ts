import type { ChannelExample } from './examples';
import type { queryChannels } from './query';

type QueryExamples = { [C in keyof typeof queryChannels]: ChannelExample<C> };

/** docs/API.md examples for the query builder's channels. */
export const queryExamples: QueryExamples = {
  'query:start': {
    summary:
      "Runs the builder's Query or Scan (table or index, key conditions, filters, projection) into a result set; pages and progress arrive as operation events.",
    input: {
      connectionId: 'playground',
      table: 'DynoTableSample',
      requestId: 'query_R4nd0mId',
      spec: {
        mode: 'query',
        index: 'GSI1',
        partitionKey: { S: 'STATUS#SHIPPED' },
        sortKey: { op: 'begins_with', value: { S: '2026-11' } },
        filter: {
          kind: 'group',
          join: 'AND',
          items: [{ kind: 'condition', path: ['total'], op: '>', value: { N: '100' } }],
        },
        descending: true,
      },
      pageSize: 100,
      maxItems: 50,
      untilMatches: true,
    },
    output: { resultSetId: 'rs_7d1e0b', operation: 'Query' },
    notes:
      'Attribute names always travel as ExpressionAttributeNames. Consistent reads on a GSI are refused with the reason. Pass done.cursor back as `cursor` with the same resultSetId to load more.',
  },
};
