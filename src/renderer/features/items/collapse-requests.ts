import { type CollapseChange, CollapseState, keyOf } from '../../../shared/dynamo/collapse-state';
import type { CollectionHeader } from '../../../shared/ipc/query';

/**
 * The renderer's copy of each result set's collapse state, changed when the user asks rather than
 * when the worker answers. Headers on screen come from blocks fetched earlier (a block stays on
 * screen until its fresh copy arrives), so without it a caret, and the toggle that a click, Enter
 * or an arrow key derives from it, showed the state from before the last change: Right then
 * Left in quick succession lost the Left, and Enter collapsed what it had just collapsed. The
 * worker applies the same changes in the same order (the store sends them one at a time), so the
 * copy does not drift from it.
 */
interface Requests {
  /** Absent until the first change: the fetched headers are right until then. */
  state?: CollapseState;
  listeners: Set<() => void>;
}

const bySet = new Map<string, Requests>();

function requestsOf(resultSetId: string): Requests {
  let requests = bySet.get(resultSetId);
  if (!requests) bySet.set(resultSetId, (requests = { listeners: new Set() }));
  return requests;
}

export function requestCollapse(resultSetId: string, change: CollapseChange): void {
  const requests = requestsOf(resultSetId);
  requests.state ??= new CollapseState();
  requests.state.apply(change);
  for (const listener of requests.listeners) listener();
}

/** A header as the user last asked for it (as fetched while nothing was asked of the set). */
export function asRequested(resultSetId: string, header: CollectionHeader): CollectionHeader {
  const state = bySet.get(resultSetId)?.state;
  if (!state) return header;
  const isCollapsed = state.isCollapsed(keyOf(header.partitionKey));
  return isCollapsed === header.isCollapsed ? header : { ...header, isCollapsed };
}

export function onCollapseRequest(resultSetId: string, listener: () => void): () => void {
  const requests = requestsOf(resultSetId);
  requests.listeners.add(listener);
  return () => requests.listeners.delete(listener);
}

/** The result set was dropped: nothing will ask about it again. */
export function forgetCollapseRequests(resultSetId: string): void {
  bySet.delete(resultSetId);
}
