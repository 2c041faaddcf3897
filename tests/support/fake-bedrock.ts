import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventFrame, exceptionFrame } from './event-stream';

/** One scripted model turn: what the fake answers to the next Converse / ConverseStream call. */
export type ScriptedTurn =
  | {
      kind: 'text';
      text: string;
      chunks?: number;
      usage?: { inputTokens: number; outputTokens: number };
      /** Sends the first chunk, then the rest only once this settles: to watch an answer stream in. */
      hold?: Promise<void>;
    }
  | {
      kind: 'tool';
      text?: string;
      tools: { name: string; input: unknown; id?: string }[];
      usage?: { inputTokens: number; outputTokens: number };
    }
  | { kind: 'http-error'; status: number; type: string; message: string }
  | { kind: 'stream-exception'; type: string; message: string }
  /** Sends the first frames, then destroys the socket mid-stream. */
  | { kind: 'cut'; text: string }
  /** Sends the first frames, then waits (until the client goes away) — for cancel tests. */
  | { kind: 'hang'; text: string };

export interface RecordedRequest {
  path: string;
  modelId: string;
  operation: 'converse' | 'converse-stream';
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface FakeBedrock {
  endpoint: string;
  requests: RecordedRequest[];
  /** Turns still to be played. */
  script: ScriptedTurn[];
  close(): Promise<void>;
}

function streamFrames(turn: ScriptedTurn & { kind: 'text' | 'tool' }): Buffer[] {
  const frames: Buffer[] = [eventFrame('messageStart', { role: 'assistant' })];
  let index = 0;
  const text = turn.text ?? '';
  if (text) {
    const parts = turn.kind === 'text' ? Math.max(1, turn.chunks ?? 3) : 1;
    const size = Math.ceil(text.length / parts);
    for (let i = 0; i < text.length; i += size) {
      frames.push(
        eventFrame('contentBlockDelta', {
          contentBlockIndex: index,
          delta: { text: text.slice(i, i + size) },
        }),
      );
    }
    frames.push(eventFrame('contentBlockStop', { contentBlockIndex: index }));
    index += 1;
  }
  if (turn.kind === 'tool') {
    for (const [n, tool] of turn.tools.entries()) {
      const toolUseId = tool.id ?? `tooluse_${n}_${Math.random().toString(36).slice(2, 10)}`;
      frames.push(
        eventFrame('contentBlockStart', {
          contentBlockIndex: index,
          start: { toolUse: { toolUseId, name: tool.name } },
        }),
      );
      // Tool input arrives as JSON fragments that the client must join at contentBlockStop.
      const json = JSON.stringify(tool.input);
      const cut = Math.max(1, Math.floor(json.length / 2));
      for (const fragment of [json.slice(0, cut), json.slice(cut)]) {
        if (fragment)
          frames.push(
            eventFrame('contentBlockDelta', {
              contentBlockIndex: index,
              delta: { toolUse: { input: fragment } },
            }),
          );
      }
      frames.push(eventFrame('contentBlockStop', { contentBlockIndex: index }));
      index += 1;
    }
  }
  const usage = turn.usage ?? { inputTokens: 100, outputTokens: 20 };
  frames.push(eventFrame('messageStop', { stopReason: turn.kind === 'tool' ? 'tool_use' : 'end_turn' }));
  frames.push(
    eventFrame('metadata', {
      usage: { ...usage, totalTokens: usage.inputTokens + usage.outputTokens },
      metrics: { latencyMs: 5 },
    }),
  );
  return frames;
}

function converseBody(turn: ScriptedTurn & { kind: 'text' | 'tool' }): unknown {
  const content: unknown[] = [];
  if (turn.text) content.push({ text: turn.text });
  if (turn.kind === 'tool') {
    for (const [n, tool] of turn.tools.entries()) {
      content.push({ toolUse: { toolUseId: tool.id ?? `tooluse_${n}`, name: tool.name, input: tool.input } });
    }
  }
  const usage = turn.usage ?? { inputTokens: 100, outputTokens: 20 };
  return {
    output: { message: { role: 'assistant', content } },
    stopReason: turn.kind === 'tool' ? 'tool_use' : 'end_turn',
    usage: { ...usage, totalTokens: usage.inputTokens + usage.outputTokens },
    metrics: { latencyMs: 5 },
  };
}

/**
 * The check Bedrock's Converse API makes before any model sees the request: a message that
 * carries tool results carries nothing else. The wording is the service's own (ValidationException).
 */
function mixedTurnError(body: Record<string, unknown>): string | undefined {
  const messages = Array.isArray(body.messages) ? (body.messages as { content?: unknown }[]) : [];
  for (const [index, message] of messages.entries()) {
    const blocks = Array.isArray(message.content) ? (message.content as Record<string, unknown>[]) : [];
    const results = blocks.filter((block) => 'toolResult' in block).length;
    if (results > 0 && results < blocks.length)
      return `messages.${index}.content: Conversation blocks and tool result blocks cannot be provided in the same turn.`;
  }
  return undefined;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/**
 * A local Bedrock Runtime speaking the real wire protocol (HTTP/1.1, REST-JSON, event-stream)
 * on 127.0.0.1: Bedrock itself cannot be reached from CI, and a mocked client could not fail
 * the way the real one does.
 */
export async function startFakeBedrock(script: ScriptedTurn[] = []): Promise<FakeBedrock> {
  const requests: RecordedRequest[] = [];
  const state = { script };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const match = /^\/model\/([^/]+)\/(converse|converse-stream)$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !match) {
        res.writeHead(404, {
          'content-type': 'application/json',
          'x-amzn-errortype': 'UnknownOperationException',
        });
        res.end(JSON.stringify({ message: 'Unknown operation' }));
        return;
      }
      const body = await readBody(req);
      const operation = match[2] as RecordedRequest['operation'];
      requests.push({
        path: req.url ?? '',
        modelId: decodeURIComponent(match[1] ?? ''),
        operation,
        headers: req.headers,
        body,
      });
      const invalid = mixedTurnError(body);
      if (invalid) {
        res.writeHead(400, { 'content-type': 'application/json', 'x-amzn-errortype': 'ValidationException' });
        res.end(JSON.stringify({ message: invalid }));
        return;
      }
      const turn = state.script.shift();
      if (!turn) {
        res.writeHead(400, { 'content-type': 'application/json', 'x-amzn-errortype': 'ValidationException' });
        res.end(JSON.stringify({ message: 'The fake Bedrock script has no turn left.' }));
        return;
      }
      if (turn.kind === 'http-error') {
        res.writeHead(turn.status, { 'content-type': 'application/json', 'x-amzn-errortype': turn.type });
        res.end(JSON.stringify({ message: turn.message }));
        return;
      }
      if (operation === 'converse') {
        if (turn.kind === 'hang') {
          // No answer until the client goes away: what a cancelled Converse call meets.
          await new Promise((resolve) => res.once('close', resolve));
          return;
        }
        if (turn.kind === 'text' || turn.kind === 'tool') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(converseBody(turn)));
        } else {
          res.destroy();
        }
        return;
      }
      res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
      if (turn.kind === 'stream-exception') {
        res.write(eventFrame('messageStart', { role: 'assistant' }));
        res.end(exceptionFrame(turn.type, turn.message));
        return;
      }
      if (turn.kind === 'cut' || turn.kind === 'hang') {
        res.write(eventFrame('messageStart', { role: 'assistant' }));
        res.write(eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: turn.text } }));
        if (turn.kind === 'cut') setImmediate(() => res.destroy());
        return;
      }
      const frames = streamFrames(turn);
      if (turn.kind === 'text' && turn.hold) {
        // messageStart and the first text delta now; the rest after the test has seen them.
        for (const frame of frames.splice(0, 2)) res.write(frame);
        await Promise.race([turn.hold, new Promise((resolve) => res.once('close', resolve))]);
      }
      for (const frame of frames) res.write(frame);
      res.end();
    })().catch((error: unknown) => {
      res.writeHead(500, {
        'content-type': 'application/json',
        'x-amzn-errortype': 'InternalServerException',
      });
      res.end(JSON.stringify({ message: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    get script() {
      return state.script;
    },
    set script(turns: ScriptedTurn[]) {
      state.script = turns;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
