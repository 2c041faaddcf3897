import type { HandlerTable } from '../dispatcher';
import { mcpHttpService } from '../../mcp/http-service';

type McpChannels = 'mcp:getExposure' | 'mcp:saveExposure' | 'mcp:regenerateToken';

export const mcpHandlers: Pick<HandlerTable, McpChannels> = {
  'mcp:getExposure': ({ connectionId }, ctx) => mcpHttpService(ctx).get(connectionId),
  'mcp:saveExposure': ({ connectionId, settings }, ctx) => mcpHttpService(ctx).save(connectionId, settings),
  'mcp:regenerateToken': ({ connectionId }, ctx) => mcpHttpService(ctx).regenerateToken(connectionId),
};
