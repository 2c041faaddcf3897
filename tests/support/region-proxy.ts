import { createServer, type IncomingMessage, type Server } from 'node:http';

/**
 * A local stand-in for "AWS in many regions": forwards every request to one DynamoDB Local, which
 * (without -sharedDb) keeps a separate database per access key and signed region, so each region
 * has its own tables. Requests signed for a region listed in `answers` get AWS's own error reply
 * for it instead (UnrecognizedClientException is what an opt-in region the account has not
 * enabled says), and regions in `hang` never answer, to test cancelling.
 */
export interface RegionProxy {
  endpoint: string;
  close(): Promise<void>;
}

export async function startRegionProxy(
  target: string,
  options: { answers?: Record<string, { status: number; type: string; message: string }>; hang?: string[] },
): Promise<RegionProxy> {
  const held = new Set<IncomingMessage>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const authorization = request.headers.authorization ?? '';
      const region = /Credential=[^/]+\/\d{8}\/([^/]+)\//.exec(authorization)?.[1] ?? '';
      if (options.hang?.includes(region)) {
        held.add(request);
        return;
      }
      const answer = options.answers?.[region];
      if (answer) {
        response.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.0' });
        response.end(
          JSON.stringify({
            __type: `com.amazonaws.dynamodb.v20120810#${answer.type}`,
            message: answer.message,
          }),
        );
        return;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers))
        if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers[name] = value;
      void fetch(`${target}${request.url ?? '/'}`, {
        method: request.method,
        headers,
        body: Buffer.concat(chunks),
      }).then(
        async (upstream) => {
          response.writeHead(upstream.status, {
            'content-type': upstream.headers.get('content-type') ?? 'application/x-amz-json-1.0',
          });
          response.end(Buffer.from(await upstream.arrayBuffer()));
        },
        () => response.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const request of held) request.socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
