import type { ToolExecutor } from './tool-runner';

/**
 * run_sql joins the agent to the SQL workbench's engine. It is offered to the model only when
 * the engine is present (see allowedTools), so the model is never handed a tool that cannot run.
 */
export const sqlExecutors: Partial<Record<'run_sql', ToolExecutor>> = {};
