import type { Connection } from '../../shared/ipc';
import { Badge } from '../ui/badge';
import { textColorOn } from '../ui/color';
import { LockIcon } from '../ui/icons';
import { connectionSubtitle } from '../features/connections/describe';
import { ThemeToggle } from '../features/theme/theme-toggle';
import { toolsIn } from '../features/workspace/tools';

export interface TopBarProps {
  connection: Connection;
  openDock?: string;
  onToggleDock(id: string): void;
  onSwitchConnection(): void;
}

/**
 * Always in the connection's colour with its label, so nobody mistakes one account for another;
 * production adds a red hazard band that no colour choice can hide.
 */
export function TopBar({ connection, openDock, onToggleDock, onSwitchConnection }: TopBarProps) {
  const foreground = textColorOn(connection.color);
  return (
    <header className="top-bar-wrap">
      {connection.isProduction ? (
        <div className="production-band" role="note" data-testid="production-band">
          PRODUCTION — changes here affect real data
        </div>
      ) : null}
      <div
        className="top-bar"
        style={{ background: connection.color, color: foreground }}
        data-testid="top-bar"
      >
        <button type="button" className="top-bar-back" onClick={onSwitchConnection} title="Switch connection">
          ‹ Connections
        </button>
        <span className="top-bar-divider" aria-hidden="true" />
        <span className="top-bar-label">{connection.label}</span>
        <span className="top-bar-subtitle">{connectionSubtitle(connection)}</span>
        {connection.isProduction ? <Badge tone="danger">PRODUCTION</Badge> : null}
        {connection.readOnly ? (
          <span className="top-bar-lock" title="Read-only: DynoTable refuses every write on this connection">
            <LockIcon /> Read-only
          </span>
        ) : null}
        <span className="toolbar-spacer" />
        {toolsIn('dock').map((tool) => (
          <button
            type="button"
            key={tool.id}
            className={`top-bar-button${openDock === tool.id ? ' is-active' : ''}`}
            aria-pressed={openDock === tool.id}
            onClick={() => onToggleDock(tool.id)}
          >
            {tool.title}
          </button>
        ))}
        <ThemeToggle />
      </div>
    </header>
  );
}
