import { shell } from 'electron';
import { isAllowedExternalUrl } from './external-links';

/**
 * The one way the desktop app opens a link in the user's browser. shell.openExternal hands the
 * URL to the OS, which would happily run `file:` or custom-protocol handlers; the allow-list
 * check in front of it is what keeps a compromised renderer from doing that.
 */
export async function openExternalSafely(url: string): Promise<boolean> {
  if (!isAllowedExternalUrl(url)) return false;
  await shell.openExternal(url, { activate: true });
  return true;
}
