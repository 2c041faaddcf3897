import { useEffect } from 'react';
import { ConnectionPicker } from './features/connections/components/connection-picker';
import { useConnectionsStore } from './features/connections/store';
import { useAppInfoStore } from './features/app-info/store';
import { StreamNotice } from './features/operations/components/stream-notice';
import { MfaDialog } from './features/mfa/components/mfa-dialog';
import { SignInDialog } from './features/sign-in/components/sign-in-dialog';
import { Workspace } from './features/workspace/components/workspace';
import { useWorkspaceShortcuts } from './features/workspace/hooks';
import { useWorkspaceStore } from './features/workspace/store';
import { startEventForwarding } from './ipc/subscriptions';

export function App() {
  const activeConnectionId = useWorkspaceStore((state) => state.activeConnectionId);
  const connection = useConnectionsStore((state) =>
    state.connections.find((candidate) => candidate.id === activeConnectionId),
  );
  useWorkspaceShortcuts();

  useEffect(() => {
    const stop = startEventForwarding();
    void useAppInfoStore.getState().load();
    void useConnectionsStore.getState().load();
    void useConnectionsStore.getState().refreshPlayground();
    return stop;
  }, []);

  return (
    <>
      {connection ? <Workspace connection={connection} /> : <ConnectionPicker />}
      <SignInDialog />
      <MfaDialog />
      <StreamNotice />
    </>
  );
}
