import type { HandlerTable } from '../dispatcher';
import { mcpHttpService } from '../../mcp/http-service';
import { proposalBoard } from '../../mcp/proposals';

type McpChannels =
  'mcp:getExposure' | 'mcp:saveExposure' | 'mcp:regenerateToken' | 'mcp:listProposals' | 'mcp:decideProposal';

export const mcpHandlers: Pick<HandlerTable, McpChannels> = {
  'mcp:getExposure': ({ connectionId }, ctx) => mcpHttpService(ctx).get(connectionId),
  'mcp:saveExposure': ({ connectionId, settings }, ctx) => mcpHttpService(ctx).save(connectionId, settings),
  'mcp:regenerateToken': ({ connectionId }, ctx) => mcpHttpService(ctx).regenerateToken(connectionId),
  'mcp:listProposals': (_input, ctx) => Promise.resolve({ proposals: proposalBoard(ctx).list() }),
  'mcp:decideProposal': ({ id, approve }, ctx) =>
    proposalBoard(ctx)
      .decide(id, approve)
      .then((decided) => ({ decided })),
};
