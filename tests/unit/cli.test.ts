import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultDataDir } from '../../src/cli/data-dir';
import { commands } from '../../src/cli/commands/index';
import { main } from '../../src/cli/index';

function captureOutput() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
  return { out: () => out.join(''), err: () => err.join('') };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('dynotable data folder', () => {
  it('is the folder the desktop app uses on each platform', () => {
    expect(defaultDataDir({}, 'linux', '/home/ada')).toBe('/home/ada/.config/DynoTable');
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/xdg' }, 'linux', '/home/ada')).toBe('/xdg/DynoTable');
    expect(defaultDataDir({}, 'darwin', '/Users/ada')).toBe(
      '/Users/ada/Library/Application Support/DynoTable',
    );
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'win32', 'C:\\Users\\ada')).toBe(
      'C:\\Users\\ada\\AppData\\Roaming\\DynoTable',
    );
  });

  it('can be moved with DYNOTABLE_DATA_DIR', () => {
    expect(defaultDataDir({ DYNOTABLE_DATA_DIR: '/srv/dynotable' }, 'linux', '/home/ada')).toBe(
      '/srv/dynotable',
    );
  });
});

describe('dynotable command line', () => {
  it('lists every registered command in --help', async () => {
    const output = captureOutput();
    expect(await main(['--help'])).toBe(0);
    const lines = output.out().split('\n');
    for (const [name, entry] of Object.entries(commands)) {
      const line = lines.find((text) => text.startsWith(`  ${name} `)) ?? '';
      expect(line).toMatch(new RegExp(`^  ${name} +\\S`));
      expect(line.endsWith(entry.summary)).toBe(true);
    }
  });

  it('prints the help and exits 2 without a command', async () => {
    const output = captureOutput();
    expect(await main([])).toBe(2);
    expect(output.out()).toContain('Usage: dynotable <command>');
  });

  it('names an unknown command in one line and exits 2', async () => {
    const output = captureOutput();
    expect(await main(['srve'])).toBe(2);
    expect(output.err()).toBe('dynotable: unknown command "srve". Run `dynotable --help` for the list.\n');
  });

  it('does not treat inherited object keys as commands', async () => {
    const output = captureOutput();
    expect(await main(['constructor'])).toBe(2);
    expect(output.err()).toContain('unknown command "constructor"');
  });
});
