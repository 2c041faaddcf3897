import { useEffect, useState } from 'react';
import { ConnectionPicker } from './features/connections/components/connection-picker';
import { useConnectionsStore } from './features/connections/store';
import { useAppInfoStore } from './features/app-info/store';
import { StreamNotice } from './features/operations/components/stream-notice';
import { KeyboardHelp } from './features/keyboard/components/keyboard-help';
import { MfaDialog } from './features/mfa/components/mfa-dialog';
import { AgentProposals } from './features/mcp/components/agent-proposals';
import { SignInDialog } from './features/sign-in/components/sign-in-dialog';
import { Workspace } from './shell/workspace';
import { WorkspaceSetAside } from './features/workspace/components/workspace-set-aside';
import { useWorkspaceShortcuts } from './features/workspace/hooks';
import { useWorkspaceStore } from './features/workspace/store';
import { restoreWorkspace, startWorkspaceSaving } from './shell/persist';
import { startEventForwarding } from './shell/event-routing';
import './shell/table-views';
import './shell/workspace-tools';
import { ErrorBoundary } from './ui/error-boundary';

let restoring: Promise<void> | undefined;

/**
 * The saved workspace is put back once per page. A second mount (React's StrictMode runs effects
 * twice) must not restore again: its answer could land after the user's first edits and put the
 * saved SQL tabs and text back over them.
 */
function restoreOnce(): Promise<void> {
  const connections = useConnectionsStore.getState();
  // The workspace comes back once main has said which connections exist and can answer.
  restoring ??= Promise.all([connections.load(), connections.refreshPlayground()]).then(restoreWorkspace);
  return restoring;
}

export function App() {
  const activeConnectionId = useWorkspaceStore((state) => state.activeConnectionId);
  const connection = useConnectionsStore((state) =>
    state.connections.find((candidate) => candidate.id === activeConnectionId),
  );
  // The picker waits for the saved workspace: shown earlier, it would vanish under a click the
  // moment the restored connection opened.
  const [isRestored, setRestored] = useState(false);
  useWorkspaceShortcuts();

  useEffect(() => {
    const stop = startEventForwarding();
    let stopSaving: (() => void) | undefined;
    let isMounted = true;
    void useAppInfoStore.getState().load();
    void restoreOnce().finally(() => {
      if (!isMounted) return;
      setRestored(true);
      stopSaving = startWorkspaceSaving();
    });
    return () => {
      isMounted = false;
      stop();
      stopSaving?.();
    };
  }, []);

  return (
    <>
      <WorkspaceSetAside />
      <ErrorBoundary onLeave={() => useWorkspaceStore.getState().closeConnection()}>
        {connection ? (
          <Workspace connection={connection} />
        ) : isRestored ? (
          <ConnectionPicker />
        ) : (
          <p className="app-starting" role="status">
            Opening your workspace…
          </p>
        )}
      </ErrorBoundary>
      <SignInDialog />
      <MfaDialog />
      <AgentProposals />
      <StreamNotice />
      <KeyboardHelp />
    </>
  );
}
