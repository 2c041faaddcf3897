import { describe, expect, it } from 'vitest';
import { createWindowOptions } from '../../../src/main/windows/window-options';

describe('the main window options', () => {
  const options = createWindowOptions({ preloadPath: '/app/out/preload/index.js', isDev: false });
  const prefs = options.webPreferences ?? {};

  it('isolates and sandboxes the renderer, without Node', () => {
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
  });

  it('keeps web security on and refuses insecure content and <webview>', () => {
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.webviewTag).toBe(false);
    expect(prefs.experimentalFeatures).toBe(false);
    expect(prefs.navigateOnDragDrop).toBe(false);
  });

  it('loads our preload', () => {
    expect(prefs.preload).toBe('/app/out/preload/index.js');
  });

  it('has DevTools only in development', () => {
    expect(prefs.devTools).toBe(false);
    const dev = createWindowOptions({ preloadPath: '/p.js', isDev: true });
    expect(dev.webPreferences?.devTools).toBe(true);
    // Development never relaxes the security flags.
    expect(dev.webPreferences?.sandbox).toBe(true);
    expect(dev.webPreferences?.contextIsolation).toBe(true);
  });
});
