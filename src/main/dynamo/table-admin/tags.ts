import { ListTagsOfResourceCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Tag } from '../../../shared/dynamo/table-definition';

const MAX_TAG_PAGES = 10;

/** A table's tags; `supported: false` where the endpoint has no tagging (DynamoDB Local). */
export async function listTags(
  client: DynamoDBClient,
  arn: string,
  signal: AbortSignal,
): Promise<{ supported: boolean; tags: Tag[] }> {
  const tags: Tag[] = [];
  let next: string | undefined;
  try {
    for (let page = 0; page < MAX_TAG_PAGES; page += 1) {
      const answer = await client.send(new ListTagsOfResourceCommand({ ResourceArn: arn, NextToken: next }), {
        abortSignal: signal,
      });
      for (const t of answer.Tags ?? []) tags.push({ key: t.Key ?? '', value: t.Value ?? '' });
      next = answer.NextToken;
      if (!next) break;
    }
  } catch (error) {
    if ((error as { name?: string }).name === 'UnknownOperationException')
      return { supported: false, tags: [] };
    throw error;
  }
  return { supported: true, tags };
}
