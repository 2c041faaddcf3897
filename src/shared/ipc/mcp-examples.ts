import type { ChannelExample } from './examples';
import { defaultMcpExposureSettings, type mcpChannels, type McpExposure } from './mcp';

type McpExamples = { [C in keyof typeof mcpChannels]: ChannelExample<C> };

const url = 'http://127.0.0.1:47311/mcp/playground';
const token = 'q9V3rN0c2xXk7hL1bM5tY8uWjE4dF6aG2sP0zR1oI3c';
const exposure: McpExposure = {
  ...defaultMcpExposureSettings,
  enabled: true,
  tables: ['DynoTableSample'],
  connectionId: 'playground',
  url,
  token,
  tokenKept: 'keychain',
  commands: {
    claudeCode: `claude mcp add --transport http dynotable-playground ${url} --header "Authorization: Bearer ${token}"`,
    cursor: `{"mcpServers":{"dynotable-playground":{"url":"${url}","headers":{"Authorization":"Bearer ${token}"}}}}`,
    vscode: `{"servers":{"dynotable-playground":{"type":"http","url":"${url}","headers":{"Authorization":"Bearer ${token}"}}}}`,
  },
};

export const mcpExamples: McpExamples = {
  'mcp:getExposure': {
    summary: "How a connection is offered to coding agents over MCP's HTTP transport, with its token.",
    input: { connectionId: 'playground' },
    output: exposure,
    notes: 'A connection never exposed reads the defaults, switched off, with a token made for it.',
  },
  'mcp:saveExposure': {
    summary: 'Switches a connection on or off for coding agents, with its table allow-list and budgets.',
    input: {
      connectionId: 'playground',
      settings: { ...defaultMcpExposureSettings, enabled: true, tables: ['DynoTableSample'] },
    },
    output: exposure,
    notes: 'Switching off ends the MCP sessions of that connection at once.',
  },
  'mcp:regenerateToken': {
    summary: 'Replaces the bearer token of an exposed connection; the old one stops working at once.',
    input: { connectionId: 'playground' },
    output: { ...exposure, token: 'N3wT0k3nAfterRegeneration0000000000000000000' },
  },
  'mcp:listProposals': {
    summary: 'Writes coding agents proposed (propose_changes over MCP) that wait for a decision in the app.',
    input: {},
    output: {
      proposals: [
        {
          id: 'appr_5b0f3c1e-2d4a-4d8e-9a57-1f6c2b7d9e01',
          kind: 'write',
          summary: 'Mark order 7 shipped (1 write)',
          requests: [
            {
              operation: 'UpdateItem',
              TableName: 'DynoTableSample',
              Key: { PK: { S: 'USER#u1' }, SK: { S: 'ORDER#7' } },
              UpdateExpression: 'SET #n0 = :v0',
              ConditionExpression: 'attribute_exists(#n1) AND #n0 = :v1',
              ExpressionAttributeNames: { '#n0': 'status', '#n1': 'PK' },
              ExpressionAttributeValues: { ':v0': { S: 'shipped' }, ':v1': { S: 'pending' } },
              ReturnValues: 'ALL_OLD',
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          ],
          items: [
            {
              table: 'DynoTableSample',
              key: { PK: { S: 'USER#u1' }, SK: { S: 'ORDER#7' } },
              before: { PK: { S: 'USER#u1' }, SK: { S: 'ORDER#7' }, status: { S: 'pending' } },
              after: { PK: { S: 'USER#u1' }, SK: { S: 'ORDER#7' }, status: { S: 'shipped' } },
            },
          ],
          connectionId: 'playground',
          connectionLabel: 'Playground',
          client: 'claude-code 2.0.14',
          at: '2026-12-06T18:00:00.000Z',
          expiresAt: '2026-12-06T18:10:00.000Z',
        },
      ],
    },
    notes: 'The same list arrives as a `proposals` event whenever it changes.',
  },
  'mcp:decideProposal': {
    summary: "Approves or rejects an agent's proposed writes; the agent's tool call gets the outcome.",
    input: { id: 'appr_5b0f3c1e-2d4a-4d8e-9a57-1f6c2b7d9e01', approve: true },
    output: { decided: true },
    notes:
      'Approved writes go through the write door under source "mcp", journaled with the client\'s name (undo from History). decided is false when the proposal no longer waited.',
  },
};
