import { create } from 'zustand';
import type { ChannelOutput } from '../../../shared/ipc';
import { call } from '../../ipc/client';

export type AppInfo = ChannelOutput<'app:info'>;

interface AppInfoStore {
  info?: AppInfo;
  load(): Promise<void>;
}

export const useAppInfoStore = create<AppInfoStore>()((set) => ({
  info: undefined,
  async load() {
    const envelope = await call('app:info', {});
    if (envelope.ok) set({ info: envelope.value });
  },
}));

/** Opens a link outside the app: through main's allow-listed opener on desktop, a new tab in browser mode. */
export async function openExternal(url: string): Promise<void> {
  const mode = useAppInfoStore.getState().info?.mode;
  if (mode === 'desktop') {
    await call('app:openExternal', { url });
    return;
  }
  window.open(url, '_blank', 'noopener,noreferrer');
}
