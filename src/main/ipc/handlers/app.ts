import type { HandlerTable } from '../dispatcher';

type AppChannel = 'app:info' | 'app:openExternal';

/** App-level channels: what the renderer needs to know about its host, and the link opener. */
export const appHandlers: Pick<HandlerTable, AppChannel> = {
  'app:info': (_input, ctx) =>
    Promise.resolve({
      version: ctx.version,
      mode: ctx.mode,
      platform: ctx.platform,
      encryptionAvailable: ctx.secrets.isAvailable(),
    }),
  // ctx.openExternal applies the allow-list before anything reaches the OS.
  'app:openExternal': async ({ url }, ctx) => ({ opened: await ctx.openExternal(url) }),
};
