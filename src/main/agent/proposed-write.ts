import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import { applyBulkUpdate } from '../../shared/dynamo/bulk-apply';
import type { PlannedItemWrite } from '../dynamo/writes/write-one';

/**
 * What a planned write leaves, as data rather than a function: an MCP proposal made by
 * `dynotable mcp` (another process) reaches the app, which writes it, in a file.
 */
export type WriteEffect =
  | { type: 'put'; item: Item }
  | { type: 'delete' }
  | { type: 'update'; set: { path: string[]; value: AttributeValue }[]; remove: string[][] };

/** One write of a proposal, exactly as approved: the conditional request and what it leaves. */
export type ProposedWrite = Omit<PlannedItemWrite, 'after'> & { table: string; effect: WriteEffect };

export type PlannedWrite = PlannedItemWrite & ProposedWrite;

/** The write door's form of a proposed write: what it leaves, worked out from the item it replaced. */
export function withAfter(write: ProposedWrite): PlannedWrite {
  const { effect } = write;
  const after =
    effect.type === 'put'
      ? () => effect.item
      : effect.type === 'delete'
        ? () => null
        : (before: Item | null) => (before ? applyBulkUpdate(before, { ...effect, type: 'update' }) : null);
  return { ...write, after };
}

/** The request as the AWS API's JSON (tagged values, binary as base64), for the card and the audit log. */
export function requestJson(write: ProposedWrite): Record<string, unknown> {
  return {
    operation: write.request.operation,
    ...(JSON.parse(JSON.stringify(write.request.input)) as object),
  };
}

/** Per write, the item as read and what the write would leave from it: the card's diff. */
export function approvalItems(writes: ProposedWrite[]) {
  return writes.map((write) => ({
    table: write.table,
    key: write.key,
    before: write.seen,
    after: withAfter(write).after(write.seen),
  }));
}
