import { useEffect, useState } from 'react';
import { formatTime } from '../../../ui/format';
import { diffItems } from '../../../../shared/dynamo/diff';
import type { McpProposal } from '../../../../shared/ipc/mcp';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { ErrorMessage } from '../../../ui/error-message';
import { RequestLine } from '../../agent/components/approval-card';
import { DiffList } from '../../editor/components/diff-list';
import { matches } from '../../keyboard/shortcuts';
import { useProposalsStore } from '../proposals-store';
import '../mcp.css';

function keyText(key: Record<string, unknown>): string {
  return Object.values(key)
    .map((value) => String(Object.values(value as Record<string, unknown>)[0]))
    .join(' · ');
}

function clock(iso: string): string {
  return formatTime(iso);
}

function ProposalCard({ proposal }: { proposal: McpProposal }) {
  const decide = useProposalsStore((state) => state.decide);
  const isDeciding = useProposalsStore((state) => state.deciding.includes(proposal.id));
  const count = proposal.requests.length;
  return (
    <section className="mcp-proposal" aria-label={`Proposal from ${proposal.client}`}>
      <header className="mcp-proposal-head">
        <strong>{proposal.client}</strong>
        <span>
          on <strong>{proposal.connectionLabel}</strong>, at {clock(proposal.at)} (rejected at{' '}
          {clock(proposal.expiresAt)} unless you decide)
        </span>
      </header>
      <p className="mcp-proposal-summary">{proposal.summary}</p>
      <ul className="agent-requests">
        {proposal.requests.map((request, i) => (
          <RequestLine key={i} request={request} />
        ))}
      </ul>
      {proposal.items?.map((item, i) => (
        <div key={i} className="mcp-proposal-diff">
          <div className="mcp-proposal-diff-head">
            {item.before ? (item.after ? 'Changes to' : 'Deletes') : 'Creates'}{' '}
            <code>{keyText(item.key)}</code> in {item.table}, against the item as the agent read it
          </div>
          <DiffList
            changes={diffItems(item.before ?? {}, item.after ?? {})}
            label={`Changes to ${keyText(item.key)}`}
          />
        </div>
      ))}
      <details className="agent-approval-exact">
        <summary>Exact request{count === 1 ? '' : 's'} (DynamoDB JSON)</summary>
        <pre>{JSON.stringify(proposal.requests, null, 2)}</pre>
      </details>
      <div className="agent-approval-actions">
        <Button variant="danger" size="sm" isBusy={isDeciding} onClick={() => void decide(proposal.id, true)}>
          Approve and write
        </Button>
        <Button size="sm" disabled={isDeciding} onClick={() => void decide(proposal.id, false)}>
          Reject
        </Button>
      </div>
      <p className="agent-approval-hint">
        Each write applies only if the item is still as the agent read it; approved writes are kept in
        History, where you can undo them.
      </p>
    </section>
  );
}

/**
 * Writes coding agents proposed over MCP, wherever the user is: a badge while any wait (the
 * shortcut opens it too), and a dialog with each proposal's requests and diff. The agent's tool
 * call waits for the answer given here.
 */
export function AgentProposals() {
  const proposals = useProposalsStore((state) => state.proposals);
  const error = useProposalsStore((state) => state.error);
  const [isOpen, setOpen] = useState(false);
  const count = proposals.length;

  useEffect(() => {
    void useProposalsStore.getState().load();
    const onKeyDown = (event: KeyboardEvent) => {
      if (!matches('agent-proposals', event) || useProposalsStore.getState().proposals.length === 0) return;
      event.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  const label = `${count} agent proposal${count === 1 ? '' : 's'} waiting for your approval`;
  return (
    <>
      <div className="mcp-proposals-dock" aria-live="polite">
        {count > 0 ? (
          <button
            type="button"
            className="mcp-proposals-badge"
            aria-label={label}
            title={`${label} (Ctrl+Shift+P)`}
            onClick={() => setOpen(true)}
          >
            Agent proposals <span className="mcp-proposals-count">{count}</span>
          </button>
        ) : null}
      </div>
      {isOpen && count > 0 ? (
        <Dialog title="Agent proposals" width="lg" onClose={() => setOpen(false)}>
          <p className="mcp-proposals-intro">
            A coding agent connected over MCP asks to write. Nothing is written until you approve; the agent
            is told what you decided.
          </p>
          {error ? <ErrorMessage error={error} compact /> : null}
          {proposals.map((proposal) => (
            <ProposalCard key={proposal.id} proposal={proposal} />
          ))}
        </Dialog>
      ) : null}
    </>
  );
}
