import os from 'node:os';
import path from 'node:path';

/**
 * Where DynoTable keeps connections and playground data. The same folder Electron's
 * app.getPath('userData') gives the desktop app, so the CLI and the window share connections.
 * $DYNOTABLE_DATA_DIR overrides it (tests, portable installs).
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  if (env.DYNOTABLE_DATA_DIR) return path.resolve(env.DYNOTABLE_DATA_DIR);
  if (platform === 'win32')
    return path.win32.join(env.APPDATA ?? path.win32.join(home, 'AppData', 'Roaming'), 'DynoTable');
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', 'DynoTable');
  return path.posix.join(env.XDG_CONFIG_HOME ?? path.posix.join(home, '.config'), 'DynoTable');
}
