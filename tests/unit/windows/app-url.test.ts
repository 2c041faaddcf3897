import { describe, expect, it } from 'vitest';
import { isAppUrl, type AppLocation } from '../../../src/main/windows/app-url';

describe('isAppUrl', () => {
  const file: AppLocation = {
    kind: 'file',
    indexFile: '/opt/DynoTable/resources/app.asar/out/renderer/index.html',
  };
  const dev: AppLocation = { kind: 'dev-server', url: 'http://localhost:5173/' };

  it("accepts the packaged app's index.html, with any hash or query", () => {
    expect(isAppUrl('file:///opt/DynoTable/resources/app.asar/out/renderer/index.html', file)).toBe(true);
    expect(isAppUrl('file:///opt/DynoTable/resources/app.asar/out/renderer/index.html#/tables', file)).toBe(
      true,
    );
  });

  it('refuses other local files and every remote page', () => {
    expect(isAppUrl('file:///tmp/evil.html', file)).toBe(false);
    expect(isAppUrl('file:///opt/DynoTable/resources/app.asar/out/renderer/other.html', file)).toBe(false);
    expect(isAppUrl('https://evil.example/index.html', file)).toBe(false);
    expect(isAppUrl('about:blank', file)).toBe(false);
    expect(isAppUrl('not a url', file)).toBe(false);
  });

  it('accepts the dev server by origin only', () => {
    expect(isAppUrl('http://localhost:5173/', dev)).toBe(true);
    expect(isAppUrl('http://localhost:5173/src/main.tsx', dev)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isAppUrl('http://localhost.evil.example:5173/', dev)).toBe(false);
    expect(isAppUrl('file:///opt/DynoTable/resources/app.asar/out/renderer/index.html', dev)).toBe(false);
  });
});
