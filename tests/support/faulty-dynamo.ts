import { randomUUID } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The errors DynamoDB Local never sends, in DynamoDB's own JSON 1.0 wire format: HTTP 400, the
 * exception's full shape id in the body's `__type` (which the SDK's JSON-RPC deserializer reads
 * first and cuts at `#`) and its bare name in `x-amzn-ErrorType`. Credential failures come from
 * the service front end, hence the coral namespaces and the capital `Message`.
 */
const FAULTS = {
  'provisioned-throughput': {
    type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
    body: {
      message:
        'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
    },
  },
  throttling: {
    type: 'com.amazon.coral.availability#ThrottlingException',
    body: { message: 'Rate of requests exceeds the allowed throughput.' },
  },
  'request-limit': {
    type: 'com.amazonaws.dynamodb.v20120810#RequestLimitExceeded',
    body: {
      message:
        'Throughput exceeds the current throughput limit for your account. Please contact AWS Support at https://aws.amazon.com/support request a limit increase',
    },
  },
  'expired-token': {
    type: 'com.amazon.coral.service#ExpiredTokenException',
    body: { Message: 'The security token included in the request is expired' },
  },
  /** What DynamoDB answers an item it will not store, e.g. an index key of the wrong type. */
  validation: {
    type: 'com.amazon.coral.validate#ValidationException',
    body: {
      message:
        'One or more parameter values were invalid: Type mismatch for Index Key GSI1PK Expected: S Actual: N IndexName: GSI1',
    },
  },
  'unrecognized-client': {
    type: 'com.amazon.coral.service#UnrecognizedClientException',
    body: { message: 'The security token included in the request is invalid.' },
  },
  /** HTTP 500: the SDK sends the request again by itself. */
  'server-error': {
    type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
    body: { message: 'Internal server error' },
    status: 500,
  },
} as const;

/**
 * What a broken network or middlebox leaves of a Scan or Query answer whose Items arrived whole:
 * `garbage-after-items` the Items array, then bytes that are not JSON, as one complete HTTP body;
 * `truncated-after-items` the Items array, then the body cut mid-member, its Content-Length
 * saying so (a proxy that cut it and counted); `short-body` the Items array, then the connection
 * closed before the Content-Length DynamoDB announced; `reset-mid-body` half the body, then a
 * TCP reset. DynamoDB Local's answer is re-serialised with Items first, as DynamoDB sends it.
 */
const BODY_FAULTS = ['garbage-after-items', 'truncated-after-items', 'short-body', 'reset-mid-body'] as const;
type BodyFault = (typeof BODY_FAULTS)[number];

function isBodyFault(fault: Fault | undefined): fault is BodyFault {
  return (BODY_FAULTS as readonly string[]).includes(fault ?? '');
}

/** Answers with DynamoDB Local's answer `bytes` broken as `fault` says. */
function answerBroken(
  req: IncomingMessage,
  res: ServerResponse,
  answer: IncomingMessage,
  bytes: Buffer,
  fault: BodyFault,
): void {
  const { Items, ...rest } = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  const items = `{"Items":${JSON.stringify(Items ?? [])}`;
  const whole = `${items},${JSON.stringify(rest).slice(1)}`;
  const { 'x-amz-crc32': _crc, 'content-length': _length, ...headers } = answer.headers;
  const send = (body: string, declared = Buffer.byteLength(body)) => {
    res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': declared });
    return Buffer.from(body, 'utf8');
  };
  if (fault === 'garbage-after-items') res.end(send(`${items},"ScannedCount":}}not json`));
  else if (fault === 'truncated-after-items') res.end(send(`${items},"ScannedCou`));
  else if (fault === 'short-body') res.write(send(items, Buffer.byteLength(whole)), () => req.socket.end());
  else {
    const body = send(whole);
    res.write(body.subarray(0, body.length >> 1), () => req.socket.resetAndDestroy());
  }
}

/**
 * `corrupt-item`: DynamoDB's own answer, forwarded with its last item's last number spelled so
 * JSON cannot read it (`{"N":-"12"}`) while brackets and quotes stay balanced: a response body
 * broken inside an item, as a faulty proxy or a truncating middlebox might leave it.
 * `drop-answer`: the call reaches DynamoDB Local, which applies it and answers; the answer is
 * thrown away and the connection reset, as a network fault after the write landed does. The SDK
 * sees ECONNRESET and sends the same request again.
 * `hold`: the call waits for the rule's `beforeForward` before it reaches DynamoDB Local, and
 * for its `beforeAnswer` once DynamoDB Local has applied and answered it, before the answer is
 * passed on: a test can write meanwhile, or kill the caller with the call held at either point.
 */
export type Fault = keyof typeof FAULTS | BodyFault | 'corrupt-item' | 'drop-answer' | 'hold';

/**
 * One line of a test's script. Counts are of the calls this rule matches:
 * `{ operation: 'Scan', fault, next: 3 }` the next 3 Scans; `{ operation: 'UpdateItem', fault,
 * every: 2 }` every 2nd UpdateItem; `{ fault }` every call from now; `after: 5` lets the first
 * five matching calls through first (a failure mid-scan).
 */
export interface FaultRule {
  fault: Fault;
  /** The X-Amz-Target operation (`Scan`, `UpdateItem`, `TransactWriteItems`); absent: any. */
  operation?: string;
  next?: number;
  every?: number;
  after?: number;
  /** Only calls whose JSON body holds this text (an item's key, say). */
  bodyIncludes?: string;
  /** `hold`: awaited before the call is forwarded to DynamoDB Local. */
  beforeForward?: () => Promise<void>;
  /** `hold`: awaited after DynamoDB Local answered, before its answer is passed on. */
  beforeAnswer?: () => Promise<void>;
  /** `hold`: awaited with half of DynamoDB Local's answer sent (a body still arriving). */
  midBody?: () => Promise<void>;
  /**
   * Fires on this share of the matching calls (0.08: about one in twelve), drawn from a random
   * sequence seeded by `seed` (default 1), so a run can be repeated exactly.
   */
  fraction?: number;
  seed?: number;
}

export interface RecordedCall {
  operation: string;
  body: Record<string, unknown>;
  /** Absent: forwarded to DynamoDB Local and its answer passed on unchanged. */
  fault?: Fault;
  at: number;
}

/** A call held at the door by `holdOne`. */
export interface HeldCall {
  /** Resolves when the held call arrives (and, held before its answer, once DynamoDB Local applied it). */
  reached: Promise<void>;
  /** Lets it through. */
  release(): void;
  /**
   * Held `midBody`: resolves once a client in this process has the held answer's headers (its
   * request is then answered and its body arriving), which `reached` alone does not say.
   */
  arrived: Promise<void>;
}

/** The header that marks an answer held mid-body, so the client side can be told it arrived. */
const HELD_HEADER = 'x-faulty-dynamo-held';

export interface FaultyDynamo {
  /** Give this to the connection's endpoint override. */
  endpoint: string;
  /** Adds rules; the first rule that fires answers the call. */
  script(...rules: FaultRule[]): void;
  /**
   * Holds the next call `rule` matches until released: before it reaches DynamoDB Local, or with
   * `at: 'beforeAnswer'` after DynamoDB Local applied it and before its answer is passed on, or
   * with `at: 'midBody'` once half of that answer's body was sent.
   */
  holdOne(
    rule: Omit<FaultRule, 'fault' | 'next' | 'beforeForward' | 'beforeAnswer' | 'midBody'>,
    at?: 'beforeForward' | 'beforeAnswer' | 'midBody',
  ): HeldCall;
  /** Every rule dropped: DynamoDB answers again. */
  heal(): void;
  /** Every call in order of arrival, answered by a fault or forwarded. */
  readonly calls: readonly RecordedCall[];
  /** The calls that reached DynamoDB Local, optionally of one operation. */
  forwarded(operation?: string): RecordedCall[];
  /** The calls a fault answered, optionally of one operation. */
  refused(operation?: string): RecordedCall[];
  close(): Promise<void>;
}

interface LiveRule extends FaultRule {
  seen: number;
  fired: number;
  draw: () => number;
}

/** mulberry32: a small seeded generator, so a fraction fires on the same calls every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fires(rule: LiveRule, operation: string, body: string): boolean {
  if (rule.operation !== undefined && rule.operation !== operation) return false;
  if (rule.bodyIncludes !== undefined && !body.includes(rule.bodyIncludes)) return false;
  rule.seen += 1;
  const position = rule.seen - (rule.after ?? 0);
  if (position <= 0) return false;
  if (rule.every !== undefined && position % rule.every !== 0) return false;
  if (rule.next !== undefined && rule.fired >= rule.next) return false;
  if (rule.fraction !== undefined && rule.draw() >= rule.fraction) return false;
  rule.fired += 1;
  return true;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function answerWithFault(res: ServerResponse, fault: keyof typeof FAULTS): void {
  const { type, body, status = 400 }: { type: string; body: object; status?: number } = FAULTS[fault];
  const payload = JSON.stringify({ __type: type, ...body });
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(payload),
    'x-amzn-requestid': randomUUID(),
    'x-amzn-errortype': type.slice(type.indexOf('#') + 1),
  });
  res.end(payload);
}

/**
 * A local HTTP server in front of DynamoDB Local that forwards DynamoDB JSON-protocol calls
 * unchanged (signature, body and DynamoDB Local's answer bytes, so the SDK parses a real answer)
 * and, as a test's script says, answers some of them with throttling or a credential failure
 * instead. It records every call, so a test can assert what was written and what was not.
 */
export async function startFaultyDynamo(upstream: string): Promise<FaultyDynamo> {
  const target = new URL(upstream);
  let rules: LiveRule[] = [];
  const calls: RecordedCall[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const targetHeader = req.headers['x-amz-target'];
      const operation = typeof targetHeader === 'string' ? (targetHeader.split('.').pop() ?? '') : '';
      const text = raw.toString('utf8');
      const body = raw.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : {};
      const rule = req.method === 'POST' ? rules.find((r) => fires(r, operation, text)) : undefined;
      calls.push({ operation, body, at: performance.now(), ...(rule ? { fault: rule.fault } : {}) });
      rules = rules.filter((r) => r.next === undefined || r.fired < r.next);
      if (rule && rule.fault in FAULTS) {
        answerWithFault(res, rule.fault as keyof typeof FAULTS);
        return;
      }
      const corrupt = rule?.fault === 'corrupt-item';
      const drop = rule?.fault === 'drop-answer';
      const hold = rule?.fault === 'hold' ? rule : undefined;
      const broken = rule && isBodyFault(rule.fault) ? rule.fault : undefined;
      await hold?.beforeForward?.();
      // A caller that went away (killed) while its call was held never had it sent.
      if (hold && (req.socket.destroyed || res.destroyed)) return;
      const forward = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          if (broken) {
            void readBody(answer).then((bytes) => answerBroken(req, res, answer, bytes, broken));
            return;
          }
          if (drop) {
            // The whole answer is read first: DynamoDB Local has applied the write by then.
            void readBody(answer).then(() => req.socket.resetAndDestroy());
            return;
          }
          if (hold?.midBody) {
            const waited = hold.midBody;
            void readBody(answer).then(async (bytes) => {
              res.writeHead(answer.statusCode ?? 502, { ...answer.headers, [HELD_HEADER]: '1' });
              const half = bytes.length >> 1;
              res.write(bytes.subarray(0, half));
              await waited();
              if (!res.destroyed) res.end(bytes.subarray(half));
            });
            return;
          }
          if (hold?.beforeAnswer) {
            const waited = hold.beforeAnswer;
            void readBody(answer).then(async (bytes) => {
              await waited();
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(bytes);
            });
            return;
          }
          if (!corrupt) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          }
          void readBody(answer).then((bytes) => {
            const text = bytes.toString('utf8');
            const at = text.lastIndexOf('{"N":"');
            const broken = Buffer.from(
              at < 0 ? text : `${text.slice(0, at)}{"N":-${text.slice(at + 5)}`,
              'utf8',
            );
            const { 'x-amz-crc32': _crc, ...headers } = answer.headers;
            res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': broken.length });
            res.end(broken);
          });
        },
      );
      forward.on('error', (error) => res.destroy(error));
      forward.end(raw);
    })().catch((error: unknown) => res.destroy(error as Error));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const pick = (faulted: boolean, operation?: string) =>
    calls.filter((c) => (c.fault !== undefined) === faulted && (!operation || c.operation === operation));
  const script = (...added: FaultRule[]): void => {
    rules.push(...added.map((r) => ({ ...r, seen: 0, fired: 0, draw: seeded(r.seed ?? 1) })));
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    script,
    holdOne: (rule, at = 'beforeForward') => {
      let reached!: () => void;
      const isReached = new Promise<void>((resolve) => (reached = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const arrived = new Promise<void>((resolve) => {
        if (at !== 'midBody') return;
        const onResponse = (message: unknown): void => {
          const { response } = message as { response: IncomingMessage };
          if (response.headers[HELD_HEADER] === undefined) return;
          diagnostics.unsubscribe('http.client.response.finish', onResponse);
          resolve();
        };
        diagnostics.subscribe('http.client.response.finish', onResponse);
      });
      script({
        ...rule,
        fault: 'hold',
        next: 1,
        [at]: () => {
          reached();
          return released;
        },
      });
      return { reached: isReached, release, arrived };
    },
    heal: () => (rules = []),
    calls,
    forwarded: (operation) => pick(false, operation),
    refused: (operation) => pick(true, operation),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs `work` with a proxy of its own in front of `upstream`, closed after it whatever happens. */
export async function withFaultyDynamo<T>(
  upstream: string,
  work: (faulty: FaultyDynamo) => Promise<T>,
): Promise<T> {
  const faulty = await startFaultyDynamo(upstream);
  try {
    return await work(faulty);
  } finally {
    await faulty.close();
  }
}
