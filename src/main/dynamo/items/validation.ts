import type { Item } from '../../../shared/dynamo/attribute-value';
import { formatPath, validateItem } from '../../../shared/dynamo/validate-item';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { ItemTarget } from './item-access';
import { indexKeyAttributes } from '../table-metadata';

/** Refuses, with every problem at its place, an item DynamoDB would refuse. Nothing is sent. */
export function assertValid(target: ItemTarget, item: Item): void {
  const issues = validateItem(item, { keys: target.info.keys, indexKeys: indexKeyAttributes(target.info) });
  const first = issues[0];
  if (!first) return;
  const where = first.path.length > 0 ? `${formatPath(first.path)}: ` : '';
  throw new AppFailure(
    ErrorCodes.invalidInput,
    `${where}${first.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`,
    false,
    {
      issues,
    },
  );
}
