import { agentService } from '../../agent/agent-service';
import type { HandlerTable } from '../dispatcher';

type AgentChannels = 'agent:getSettings' | 'agent:saveSettings' | 'agent:ask' | 'agent:decide';

export const agentHandlers: Pick<HandlerTable, AgentChannels> = {
  'agent:getSettings': async ({ connectionId }, ctx) => agentService(ctx).settings.get(connectionId),
  'agent:saveSettings': async ({ connectionId, settings }, ctx) => {
    await ctx.connections.get(connectionId);
    return agentService(ctx).settings.save(connectionId, settings);
  },
  'agent:ask': async (input, ctx) => ({ conversationId: await agentService(ctx).ask(input) }),
  'agent:decide': ({ approvalId, approve }, ctx) =>
    Promise.resolve({ accepted: agentService(ctx).approvals.decide(approvalId, approve) }),
};
