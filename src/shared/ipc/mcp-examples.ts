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
};
