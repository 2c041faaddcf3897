import type { Session } from 'electron';
import { contentSecurityPolicy } from './csp';

/**
 * Permissions the renderer may use. Copying an item or a query result to the clipboard is a
 * core action of a database client; camera, geolocation, notifications, MIDI, HID... are not.
 */
const allowedPermissions = new Set(['clipboard-sanitized-write']);

export function isAllowedPermission(permission: string): boolean {
  return allowedPermissions.has(permission);
}

/**
 * Locks a session down: every permission request except the allow-list is denied, and every
 * response carries our CSP header (file:// pages get it from index.html's <meta> instead).
 */
export function hardenSession(session: Session, isAppUrl: (url: string) => boolean, isDev: boolean): void {
  session.setPermissionRequestHandler((contents, permission, callback) => {
    callback(isAllowedPermission(permission) && isAppUrl(contents.getURL()));
  });
  session.setPermissionCheckHandler((contents, permission, requestingOrigin) => {
    // A file:// page's origin is just "file://"; its full URL is what identifies our index.html.
    return isAllowedPermission(permission) && isAppUrl(contents?.getURL() ?? requestingOrigin);
  });
  const policy = contentSecurityPolicy({ dev: isDev });
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] },
    });
  });
}
