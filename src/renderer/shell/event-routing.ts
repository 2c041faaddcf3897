import type { OperationEvent } from '../../shared/ipc';
import { useEditorStore } from '../features/editor/store';
import { useSelectionStore } from '../features/items/selection-store';
import { useItemsStore } from '../features/items/store';
import { useJournalStore } from '../features/journal/store';
import { useProposalsStore } from '../features/mcp/proposals-store';
import { useMfaStore } from '../features/mfa/store';
import { useOperationsStore } from '../features/operations/store';
import { startEventStream } from '../ipc/subscriptions';

/**
 * Which store takes which main→renderer event. It sits above the features, next to app.tsx, so
 * the transport in ipc/ knows no feature and no feature's store imports the stream's module.
 */
function routeEvent(event: OperationEvent): void {
  // Not an operation: result sets that writes changed, which the Items tabs read again.
  if (event.type === 'resultsets') {
    useItemsStore.getState().applyWrites(event.changes);
    return;
  }
  // Not an operation either: what DynamoDB now holds for items DynoTable wrote.
  if (event.type === 'written') {
    useSelectionStore.getState().written(event.connectionId, event.table, event.items);
    useEditorStore.getState().written(event.connectionId, event.table, event.source, event.items);
    return;
  }
  // Not an operation: a table's undo journal changed; an open History reads it again.
  if (event.type === 'journal') {
    useJournalStore.getState().changed(event.connectionId, event.table);
    return;
  }
  // Not an operation: the whole list of coding agents' writes waiting for a decision.
  if (event.type === 'proposals') {
    useProposalsStore.getState().received(event.proposals);
    return;
  }
  // A prompt nobody in this window started: main waits for a code before a call can go on.
  if (event.type === 'mfa') useMfaStore.getState().prompted(event);
  useOperationsStore.getState().receive(event);
}

/** Forwards every event to its stores; returns the function that stops it. */
export function startEventForwarding(): () => void {
  return startEventStream({
    deliver: routeEvent,
    gap: (gap) => {
      useOperationsStore.getState().receiveGap(gap);
      // The list may have changed while nobody listened, and so may the undo journals.
      void useProposalsStore.getState().load();
      useJournalStore.getState().missed();
    },
  });
}
