import { listProfiles } from '../../aws/profiles';
import { testConnection } from '../../aws/test-connection';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { HandlerTable } from '../dispatcher';

type ConnectionChannel =
  | 'connections:list'
  | 'connections:save'
  | 'connections:delete'
  | 'connections:test'
  | 'connections:profiles'
  | 'connections:signIn'
  | 'connections:mfaCode';

/** Saved connections, AWS profiles, "Test connection", SSO sign-in and MFA codes. Logic lives in main/aws. */
export const connectionHandlers: Pick<HandlerTable, ConnectionChannel> = {
  'connections:list': (_input, ctx) => ctx.connections.list(),

  'connections:save': async ({ connection, accessKeys }, ctx) => {
    const saved = await ctx.connections.save(connection, accessKeys);
    // The cached client may carry old credentials, region or read-only flag.
    ctx.clients.invalidate(saved.id);
    return saved;
  },

  'connections:delete': async ({ connectionId }, ctx) => {
    const deleted = await ctx.connections.remove(connectionId);
    ctx.clients.invalidate(connectionId);
    return { deleted };
  },

  'connections:test': async ({ connectionId }, ctx) =>
    testConnection(await ctx.connections.get(connectionId), ctx),

  'connections:profiles': () => listProfiles(),

  'connections:signIn': async ({ connectionId, requestId }, ctx) => {
    const connection = await ctx.connections.get(connectionId);
    if (connection.kind !== 'profile') {
      throw new AppFailure(
        ErrorCodes.invalidInput,
        'Only connections that use an AWS profile with IAM Identity Center (SSO) can sign in again.',
      );
    }
    await ctx.signIn(connectionId, requestId);
    return { started: true };
  },

  'connections:mfaCode': (input, ctx) => {
    // The code goes straight to the waiting SDK call: never logged, stored or echoed back.
    if ('code' in input) ctx.mfa.answer(input.promptId, input.code);
    else ctx.mfa.cancel(input.promptId);
    return Promise.resolve({ received: true });
  },
};
