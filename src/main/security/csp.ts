/**
 * The renderer's Content-Security-Policy, written once. The Electron window sends it as a
 * response header, electron.vite.config.ts writes it into index.html as a <meta> tag (file://
 * pages have no headers to attach it to), and browser mode can send the same header.
 *
 * Kept free of Electron and Node imports so the build config and the HTTP server can use it.
 */
type Directives = Record<string, readonly string[]>;

const production: Directives = {
  'default-src': ["'none'"],
  // Only our own bundles: no inline script, no eval, no remote origin.
  'script-src': ["'self'"],
  // React sets style through the CSSOM (not blocked by CSP), but libraries and Vite's CSS
  // handling insert <style> elements; styles cannot run code, so this one allowance is cheap.
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  // Electron talks over IPC; browser mode calls its own origin (fetch + EventSource).
  'connect-src': ["'self'"],
  // The SQL worker ships as its own file next to the bundle (no blob: or inline workers).
  'worker-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-src': ["'none'"],
};

/**
 * `electron-vite dev` only: @vitejs/plugin-react injects an inline module preamble for Fast
 * Refresh and Vite's client opens a websocket for HMR. Never used by a build.
 */
const devAdditions: Directives = {
  'script-src': ["'unsafe-inline'"],
  'connect-src': ['ws://localhost:*', 'ws://127.0.0.1:*', 'http://localhost:*', 'http://127.0.0.1:*'],
};

export interface CspOptions {
  /** Relax for the Vite dev server (inline Fast Refresh preamble, HMR websocket). */
  dev?: boolean;
  /**
   * 'meta' drops frame-ancestors, which browsers ignore (with a console error) inside a
   * <meta> tag; a header can carry it.
   */
  delivery?: 'header' | 'meta';
}

export function contentSecurityPolicy(options: CspOptions = {}): string {
  const directives: Record<string, string[]> = {};
  for (const [name, sources] of Object.entries(production)) directives[name] = [...sources];
  if (options.dev) {
    for (const [name, sources] of Object.entries(devAdditions)) {
      directives[name] = [...(directives[name] ?? []), ...sources];
    }
  }
  if (options.delivery !== 'meta') directives['frame-ancestors'] = ["'none'"];
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** The policy of every build: the Electron window and browser mode. */
export const APP_CSP = contentSecurityPolicy();
