import type { GlobalIndexDefinition } from '../dynamo/table-definition';
import { globalIndexCdkText } from '../dynamo/cdk-text';
import { keyPartsOf } from '../dynamo/key-model';
import { globalIndexCloudFormationText } from '../dynamo/table-request-text';
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
  return globalIndexCloudFormationText(adviceIndex(advice));
}

export function adviceCdk(advice: KeyAdvice): string {
  return globalIndexCdkText(adviceIndex(advice));
}
