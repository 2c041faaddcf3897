import type { ComponentType } from 'react';
import type { Connection } from '../../../shared/ipc';
import { createRegistry } from '../../ui/registry';

export interface WorkspaceToolProps {
  connection: Connection;
}

/**
 * Connection-wide tools (the SQL workbench, migration reports, the agent chat), registered from
 * ../../shell/workspace-tools.ts above the features, so the workspace imports none of the tools
 * that import its props. "tab" tools get a pinned tab after Tables, "dock" tools a toggle in the
 * top bar that opens a panel on the right. Nothing is listed until a feature really works.
 */
export interface WorkspaceTool {
  id: string;
  title: string;
  order: number;
  placement: 'tab' | 'dock';
  Component: ComponentType<WorkspaceToolProps>;
}

const workspaceTools = createRegistry<WorkspaceTool>();

export const registerWorkspaceTools = workspaceTools.register;

export function toolsIn(placement: WorkspaceTool['placement']): WorkspaceTool[] {
  return workspaceTools
    .entries()
    .filter((tool) => tool.placement === placement)
    .sort((a, b) => a.order - b.order);
}
