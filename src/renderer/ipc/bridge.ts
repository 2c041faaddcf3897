import { BRIDGE_KEY, type DynoTableBridge } from '../../shared/ipc/bridge';

export type { DynoTableBridge };

/** The preload bridge when running inside Electron, undefined in browser mode. */
export function desktopBridge(): DynoTableBridge | undefined {
  if (typeof window === 'undefined') return undefined;
  return (window as unknown as Record<string, DynoTableBridge | undefined>)[BRIDGE_KEY];
}
