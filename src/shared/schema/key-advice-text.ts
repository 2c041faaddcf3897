import type { GlobalIndexDefinition } from '../dynamo/table-definition';
import { keyPartsOf, keySchemaElements } from '../dynamo/key-model';
import type { KeyAdvice } from '../ipc/schema';

/**
 * The advisor's proposal as table admin's add-index change takes it (the one create path) and as
 * CloudFormation and CDK snippets. ALL projection: the synthetic index's queries read whole
 * items as often as not, and a narrower projection is table admin's choice to make afterwards.
 */
export function adviceIndex(advice: KeyAdvice): GlobalIndexDefinition {
  const keys = keyPartsOf(advice.partitionKeys, advice.sortKeys);
  return { name: advice.proposedName, ...keys, projection: { type: 'ALL' } };
}

export function adviceCloudFormation(advice: KeyAdvice): string {
  const attributes = [...advice.partitionKeys, ...advice.sortKeys];
  const snippet = {
    AttributeDefinitions: attributes.map((a) => ({ AttributeName: a.name, AttributeType: a.type })),
    GlobalSecondaryIndexes: [
      {
        IndexName: advice.proposedName,
        KeySchema: keySchemaElements(keyPartsOf(advice.partitionKeys, advice.sortKeys)),
        Projection: { ProjectionType: 'ALL' },
      },
    ],
  };
  return `# Add to the table's Properties (keep its other AttributeDefinitions and indexes):\n${JSON.stringify(snippet, null, 2)}`;
}

const CDK_TYPES = { S: 'STRING', N: 'NUMBER', B: 'BINARY' } as const;

export function adviceCdk(advice: KeyAdvice): string {
  const list = (keys: KeyAdvice['partitionKeys']) =>
    keys
      .map(
        (k) =>
          `\n    { name: ${JSON.stringify(k.name)}, type: dynamodb.AttributeType.${CDK_TYPES[k.type]} },`,
      )
      .join('');
  return [
    'table.addGlobalSecondaryIndex({',
    `  indexName: ${JSON.stringify(advice.proposedName)},`,
    `  partitionKeys: [${list(advice.partitionKeys)}\n  ],`,
    ...(advice.sortKeys.length > 0 ? [`  sortKeys: [${list(advice.sortKeys)}\n  ],`] : []),
    '  projectionType: dynamodb.ProjectionType.ALL,',
    '});',
  ].join('\n');
}
