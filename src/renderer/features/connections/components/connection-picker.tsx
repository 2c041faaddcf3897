import { useState } from 'react';
import type { Connection } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { EmptyState } from '../../../ui/empty-state';
import { ErrorMessage } from '../../../ui/error-message';
import { ThemeToggle } from '../../theme/theme-toggle';
import { useWorkspaceStore } from '../../workspace/store';
import { useConnectionsStore } from '../store';
import { ConnectionCard } from './connection-card';
import { ConnectionForm } from './connection-form';
import { PlaygroundCard } from './playground-card';
import { PlaygroundForm } from './playground-form';

type Editing =
  { mode: 'new' } | { mode: 'edit'; connection: Connection } | { mode: 'playground'; connection: Connection };

export function ConnectionPicker() {
  const connections = useConnectionsStore((state) => state.connections);
  const isLoading = useConnectionsStore((state) => state.isLoading);
  const loadError = useConnectionsStore((state) => state.loadError);
  const load = useConnectionsStore((state) => state.load);
  const test = useConnectionsStore((state) => state.test);
  const openConnection = useWorkspaceStore((state) => state.openConnection);
  const [editing, setEditing] = useState<Editing>();
  // The playground has its own card; list it with the others only if it is not the built-in one.
  const saved = connections.filter((connection) => connection.kind !== 'playground');
  const playground = connections.find((connection) => connection.kind === 'playground');

  return (
    <div className="picker">
      <header className="picker-header">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          <h1 className="brand-name">DynoTable</h1>
        </div>
        <ThemeToggle />
      </header>
      <main className="picker-main">
        <PlaygroundCard
          playground={playground}
          onOpen={openConnection}
          onEdit={() => {
            if (playground) setEditing({ mode: 'playground', connection: playground });
          }}
        />
        <section className="picker-section" aria-labelledby="saved-connections">
          <div className="section-header">
            <h2 id="saved-connections">Connections</h2>
            <Button variant="primary" onClick={() => setEditing({ mode: 'new' })}>
              New connection
            </Button>
          </div>
          {loadError ? <ErrorMessage error={loadError} onRetry={() => void load()} /> : null}
          {saved.length > 0 ? (
            <ul className="connection-list">
              {saved.map((connection) => (
                <ConnectionCard
                  key={connection.id}
                  connection={connection}
                  onOpen={() => openConnection(connection.id)}
                  onEdit={() => setEditing({ mode: 'edit', connection })}
                />
              ))}
            </ul>
          ) : !isLoading && !loadError ? (
            <EmptyState title="No saved connections yet">
              Add an AWS profile (SSO and assume-role work), access keys, or an endpoint such as LocalStack.
            </EmptyState>
          ) : null}
        </section>
      </main>
      {editing?.mode === 'playground' ? (
        <PlaygroundForm playground={editing.connection} onClose={() => setEditing(undefined)} />
      ) : editing ? (
        <ConnectionForm
          connection={editing.mode === 'edit' ? editing.connection : undefined}
          onClose={() => setEditing(undefined)}
          onSaved={(connection) => {
            setEditing(undefined);
            void test(connection.id);
          }}
        />
      ) : null}
    </div>
  );
}
