import type { ToolSession } from './tool-runner';

/**
 * In "ask" mode a read estimated above the user's threshold waits for an approval card; in the
 * other modes (and below the threshold) it runs. The card shows the exact read requests.
 */
export async function approveRead(
  session: ToolSession,
  step: { id: string; tool: string; input: Record<string, unknown> },
  summary: string,
  requests: Record<string, unknown>[],
  estimate: number,
): Promise<boolean> {
  if (session.settings.mode !== 'ask' || estimate <= session.settings.askAboveReadCapacity) return true;
  const id = session.approvals.newId();
  const decision = session.approvals.wait(id, session.signal);
  session.emit({ kind: 'step', step: { ...step, status: 'waiting-approval' } });
  session.emit({
    kind: 'approval',
    approval: { id, kind: 'read', summary: `${summary} (about ${estimate.toFixed(1)} RCU)`, requests },
  });
  const approved = await decision;
  session.emit({
    kind: 'approval-resolved',
    id,
    approved,
    outcome: approved ? 'Read approved.' : 'Declined: nothing was read.',
  });
  await session.audit.record(
    { connectionId: session.connection.id, conversationId: session.conversationId },
    { type: 'approval', approvalId: id, kind: 'read', approved, requests },
  );
  return approved;
}
