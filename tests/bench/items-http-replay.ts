import { NodeHttpHandler } from '@smithy/node-http-handler';
import { HttpResponse } from '@smithy/core/transport';
import type { HttpRequest } from '@smithy/core/transport';
import { Readable } from 'node:stream';

/**
 * Benchmark plumbing, not a test double: `record` wraps the real HTTP handler and keeps the
 * bytes DynamoDB Local answered; `replay` hands those same bytes back, so the client-side
 * CPU of a scan can be measured without DynamoDB Local's time in the figures.
 */
export interface Recorded {
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
}

export function recordingHandler(into: Recorded[]): NodeHttpHandler {
  const inner = new NodeHttpHandler();
  const handler = Object.create(inner) as NodeHttpHandler;
  handler.handle = async (request: HttpRequest, options?: { abortSignal?: AbortSignal }) => {
    const { response } = await inner.handle(request, options);
    const chunks: Buffer[] = [];
    for await (const chunk of response.body as Readable) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (request.headers['x-amz-target']?.endsWith('.Scan'))
      into.push({ statusCode: response.statusCode, headers: response.headers, body });
    return {
      response: new HttpResponse({
        statusCode: response.statusCode,
        headers: response.headers,
        body: Readable.from([body]),
      }),
    };
  };
  return handler;
}

export function replayHandler(pages: Recorded[]): NodeHttpHandler {
  let next = 0;
  const handler = Object.create(new NodeHttpHandler()) as NodeHttpHandler;
  handler.handle = (_request: HttpRequest) => {
    const page = pages[next++ % pages.length];
    if (!page) throw new Error('nothing recorded');
    return Promise.resolve({
      response: new HttpResponse({
        statusCode: page.statusCode,
        headers: page.headers,
        body: Readable.from([page.body]),
      }),
    });
  };
  return handler;
}
