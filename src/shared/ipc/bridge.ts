import type { Envelope } from '../errors';
import type { Channel, ChannelInput, ChannelOutput } from './contract';
import type { OperationEvent } from './operations';

/**
 * What the Electron preload exposes as `window.dynotable`: one method per contract channel,
 * named exactly like the channel, resolving to the dispatcher's envelope, plus the one
 * subscription to operation events. Nothing generic: no invoke(anyChannel), no ipcRenderer.
 */
export type DynoTableBridge = {
  [C in Channel]: (input: ChannelInput<C>) => Promise<Envelope<ChannelOutput<C>>>;
} & {
  /** Returns the function that unsubscribes. */
  onEvent(listener: (event: OperationEvent) => void): () => void;
};

/** The global name the preload exposes the bridge under. */
export const BRIDGE_KEY = 'dynotable';
