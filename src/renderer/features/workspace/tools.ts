import type { ComponentType } from 'react';
import type { Connection } from '../../../shared/ipc';
import { AgentPanel } from '../agent/components/agent-panel';
import { SqlWorkbench } from '../sql/components/sql-workbench';

export interface WorkspaceToolProps {
  connection: Connection;
}

/**
 * Connection-wide tools (the SQL workbench, migration reports, the agent chat). A feature adds
 * one entry here; "tab" tools get a pinned tab after Tables, "dock" tools a toggle in the top bar
 * that opens a panel on the right. Nothing is listed until a feature really works.
 */
export interface WorkspaceTool {
  id: string;
  title: string;
  order: number;
  placement: 'tab' | 'dock';
  Component: ComponentType<WorkspaceToolProps>;
}

export const workspaceTools: WorkspaceTool[] = [
  { id: 'sql', title: 'SQL', order: 10, placement: 'tab', Component: SqlWorkbench },
  { id: 'agent', title: 'Assistant', order: 90, placement: 'dock', Component: AgentPanel },
];

export function toolsIn(placement: WorkspaceTool['placement']): WorkspaceTool[] {
  return workspaceTools.filter((tool) => tool.placement === placement).sort((a, b) => a.order - b.order);
}
