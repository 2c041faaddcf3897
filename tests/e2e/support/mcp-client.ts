import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll } from 'vitest';
import { SAMPLE_TABLE } from '../../../resources/playground/sample-table';
import { mcpHttpService } from '../../../src/main/mcp/http-service';
import type { AppInBrowser } from './session';

/**
 * A coding agent for one e2e file: the playground exposed over the app's MCP HTTP transport
 * (the sample table, writes allowed, no scans) and the official SDK client connected to it under
 * `name` and `version`, as most clients come (no elicitation). Closed after the file's last test.
 */
export function useMcpHttpClient(
  session: AppInBrowser,
  name: string,
  version: string,
): { readonly client: Client } {
  let client: Client | undefined;
  beforeAll(async () => {
    const exposure = await mcpHttpService(session.app.core).save('playground', {
      enabled: true,
      tables: [SAMPLE_TABLE],
      maxItems: 100,
      maxRcu: 50,
      allowWrites: true,
      allowScans: false,
    });
    client = new Client({ name, version });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(exposure.url ?? ''), {
        requestInit: { headers: { Authorization: `Bearer ${exposure.token}` } },
      }),
    );
  });
  afterAll(async () => {
    await client?.close();
  });
  return {
    get client() {
      if (!client) throw new Error('The MCP client is not connected: use it inside a test.');
      return client;
    },
  };
}
