import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { tokensMatch } from '../server/auth';
import { checkHost, checkSite } from '../server/request-guard';
import { sendJson, sendRefusal, setSecurityHeaders } from '../server/responses';
import { createMcpServer } from './mcp-server';
import type { ProposalBoard } from './proposals';
import type { McpToolSession } from './tool-session';

const LOOPBACK = '127.0.0.1';
const HINT = "Use the connect command from the connection's MCP settings in DynoTable.";
const PATH = /^\/mcp\/([^/]+)$/;

/** What the listener needs of an exposed connection: its token, and the session its tools run in. */
export interface Exposed {
  token: string;
  session: McpToolSession;
}

export interface McpHttpOptions {
  /** 0 picks a free port. */
  port: number;
  version: string;
  /** The app's board, where writes the agents propose wait for the user. */
  board: ProposalBoard;
  /** The exposed connection by id; undefined when it is not (or no longer) switched on. */
  exposed(connectionId: string): Promise<Exposed | undefined>;
}

export interface McpHttpListener {
  port: number;
  urlFor(connectionId: string): string;
  /** Ends every MCP session of a connection (switched off, token regenerated, settings changed). */
  endSessions(connectionId: string): Promise<void>;
  close(): Promise<void>;
}

/** Only `Authorization: Bearer …`: no cookie, no query string, so a token never sits in a URL or a page. */
function bearer(request: IncomingMessage): string | undefined {
  const value = request.headers.authorization;
  return value?.startsWith('Bearer ') ? value.slice('Bearer '.length).trim() : undefined;
}

function jsonRpcError(response: ServerResponse, status: number, message: string): void {
  sendJson(response, status, { jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

/**
 * MCP's streamable HTTP on 127.0.0.1, one path per exposed connection (/mcp/<id>). Every request
 * must name our Host, carry no foreign Origin (DNS rebinding, other pages) and present that
 * connection's token; each MCP session is one SDK transport and server over the connection's
 * tool session, so budgets, allow-list, scans and writes hold exactly as on stdio.
 */
export async function startMcpHttp(options: McpHttpOptions): Promise<McpHttpListener> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; connectionId: string }>();
  let port = 0;

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    setSecurityHeaders(response);
    const refusal = checkHost(request, port, HINT) ?? checkSite(request, port, HINT);
    if (refusal) {
      sendRefusal(request, response, refusal);
      return;
    }
    const match = PATH.exec(new URL(request.url ?? '/', `http://${LOOPBACK}`).pathname);
    const connectionId = match ? decodeURIComponent(match[1] ?? '') : undefined;
    const exposed = connectionId === undefined ? undefined : await options.exposed(connectionId);
    // One answer for an unknown path, a connection not exposed and a wrong token: none tells which.
    if (!connectionId || !exposed || !tokensMatch(bearer(request), exposed.token)) {
      response.setHeader('WWW-Authenticate', 'Bearer');
      jsonRpcError(response, 401, `DynoTable refused this MCP request: wrong address or token. ${HINT}`);
      return;
    }
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const entry = sessions.get(sessionId);
      if (entry?.connectionId !== connectionId) {
        jsonRpcError(response, 404, 'This MCP session has ended; connect again.');
        return;
      }
      await entry.transport.handleRequest(request, response);
      return;
    }
    if (request.method !== 'POST') {
      jsonRpcError(response, 405, 'Start an MCP session with POST (initialize).');
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, connectionId });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    const server = createMcpServer(exposed.session, options.version, options.board);
    await server.connect(transport);
    await transport.handleRequest(request, response);
  }

  const server = createServer((request, response) => {
    route(request, response).catch(() => {
      if (response.headersSent) response.destroy();
      else jsonRpcError(response, 500, 'DynoTable could not answer this MCP request.');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, LOOPBACK, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  const endSessions = async (connectionId?: string): Promise<void> => {
    const ending = [...sessions.values()].filter((s) => !connectionId || s.connectionId === connectionId);
    await Promise.all(ending.map((s) => s.transport.close()));
  };
  return {
    port,
    urlFor: (connectionId) => `http://${LOOPBACK}:${port}/mcp/${encodeURIComponent(connectionId)}`,
    endSessions,
    close: async () => {
      await endSessions();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
