import { loadWorkspace, saveWorkspace } from '../../workspace/workspace-file';
import type { Handler } from '../dispatcher';

/** workspace:* — the open connection, tabs, forms and SQL text, kept in the data folder. */
export const workspaceHandlers: {
  'workspace:load': Handler<'workspace:load'>;
  'workspace:save': Handler<'workspace:save'>;
} = {
  'workspace:load': (_input, ctx) => loadWorkspace(ctx.dataDir),
  'workspace:save': async (input, ctx) => {
    await saveWorkspace(ctx.dataDir, input.snapshot);
    return { saved: true };
  },
};
