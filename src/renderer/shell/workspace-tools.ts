import { AgentPanel } from '../features/agent/components/agent-panel';
import { SqlWorkbench } from '../features/sql/components/sql-workbench';
import { registerWorkspaceTools } from '../features/workspace/tools';

// The connection-wide tools, put together above the features: the workspace shows them and each
// tool imports the workspace's props, so neither side imports the other.
registerWorkspaceTools([
  { id: 'sql', title: 'SQL', order: 10, placement: 'tab', Component: SqlWorkbench },
  { id: 'agent', title: 'Assistant', order: 90, placement: 'dock', Component: AgentPanel },
]);
