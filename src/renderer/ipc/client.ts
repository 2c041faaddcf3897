import type { AppError, Channel, ChannelInput, ChannelOutput, Envelope } from '../../shared/ipc';
import { desktopBridge } from './bridge';
import { eventStreamReady } from './subscriptions';

/** Our own code for "the other side did not answer" (the server stopped, the network dropped). */
export const transportErrorCode = 'AppUnreachable';

function transportError(message: string): { ok: false; error: AppError } {
  return { ok: false, error: { code: transportErrorCode, message, retryable: true } };
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

async function callOverHttp(channel: Channel, input: unknown): Promise<Envelope<unknown>> {
  await eventStreamReady();
  let response: Response;
  try {
    response = await fetch(`/api/${channel}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      // The server authenticates with an HttpOnly cookie it set when the page first loaded.
      credentials: 'same-origin',
      body: JSON.stringify(input ?? {}),
    });
  } catch {
    return transportError(
      'DynoTable is not answering. Check that `dynotable serve` is still running, then reload.',
    );
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  if (isEnvelope(body)) return body;
  if (response.status === 401 || response.status === 403) {
    return transportError(
      'This page is no longer signed in to DynoTable. Open the address that `dynotable serve` printed again.',
    );
  }
  return transportError(`DynoTable answered with HTTP ${response.status} instead of a result.`);
}

/**
 * Calls one contract channel and returns its envelope. Never throws: every failure, including
 * a transport that is gone, arrives as `{ ok: false, error }` with a sentence a person understands.
 */
export async function call<C extends Channel>(
  channel: C,
  input: ChannelInput<C>,
): Promise<Envelope<ChannelOutput<C>>> {
  const bridge = desktopBridge();
  if (!bridge) return (await callOverHttp(channel, input)) as Envelope<ChannelOutput<C>>;
  try {
    const method = bridge[channel] as (input: ChannelInput<C>) => Promise<Envelope<ChannelOutput<C>>>;
    return await method(input);
  } catch {
    return transportError('The DynoTable window lost contact with the app. Restart DynoTable.');
  }
}

/** For callers that want the value or a thrown AppError-shaped failure (used inside store actions). */
export class CallFailure extends Error {
  constructor(readonly error: AppError) {
    super(error.message);
    this.name = error.code;
  }
}

export async function callOrThrow<C extends Channel>(
  channel: C,
  input: ChannelInput<C>,
): Promise<ChannelOutput<C>> {
  const envelope = await call(channel, input);
  if (!envelope.ok) throw new CallFailure(envelope.error);
  return envelope.value;
}

export function toAppErrorShape(error: unknown): AppError {
  if (error instanceof CallFailure) return error.error;
  return {
    code: 'InternalError',
    message: 'Something went wrong in the DynoTable window.',
    retryable: false,
  };
}

/** A request id the contract accepts: 8–64 of [A-Za-z0-9_-]. */
export function newRequestId(prefix = 'req'): string {
  return `${prefix}-${crypto.randomUUID()}`;
}
