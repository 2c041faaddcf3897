import type { HandlerTable } from '../dispatcher';

type McpChannels = 'mcp:getExposure' | 'mcp:saveExposure' | 'mcp:regenerateToken';

export const mcpHandlers: Pick<HandlerTable, McpChannels> = {
  'mcp:getExposure': ({ connectionId }, ctx) => ctx.services.mcp().get(connectionId),
  'mcp:saveExposure': ({ connectionId, settings }, ctx) => ctx.services.mcp().save(connectionId, settings),
  'mcp:regenerateToken': ({ connectionId }, ctx) => ctx.services.mcp().regenerateToken(connectionId),
};
