import type { z } from 'zod';
import { contract, isChannel, type Channel, type ChannelOutput, type Contract } from '../../shared/ipc';
import { parseKeepingProtoKeys } from '../../shared/dynamo/proto-keys';
import { type Envelope, ErrorCodes } from '../../shared/errors';
import type { CoreContext } from '../core/context';
import { toAppError } from '../core/to-app-error';

export type Handler<C extends Channel> = (
  input: z.output<Contract[C]['input']>,
  ctx: CoreContext,
) => Promise<ChannelOutput<C>>;

export type HandlerTable = { [C in Channel]: Handler<C> };

/**
 * The one registration wrapper: (the transport has checked the sender) → parse the untrusted
 * payload with the contract's schema → run the handler → envelope. Electron IPC and browser
 * mode's HTTP routes both call this, so every channel is validated and enveloped the same way.
 */
export function createDispatcher(handlers: HandlerTable, ctx: CoreContext) {
  return async function dispatch(channel: string, payload: unknown): Promise<Envelope<unknown>> {
    if (!isChannel(channel)) {
      return {
        ok: false,
        error: {
          code: ErrorCodes.unknownChannel,
          message: `There is no channel named ${channel}.`,
          retryable: false,
        },
      };
    }
    try {
      const input: unknown = parseKeepingProtoKeys(contract[channel].input as z.ZodType, payload ?? {});
      const handler = handlers[channel] as (input: unknown, ctx: CoreContext) => Promise<unknown>;
      const value = await handler(input, ctx);
      return { ok: true, value };
    } catch (error) {
      return { ok: false, error: toAppError(error) };
    }
  };
}

export type Dispatch = ReturnType<typeof createDispatcher>;
