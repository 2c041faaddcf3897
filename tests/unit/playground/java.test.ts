import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkJava, JAVA_HELP, parseJavaMajor } from '../../../src/main/playground/java';
import { createPlayground } from '../../../src/main/playground/playground';

const oldJava = path.resolve(__dirname, '../../fixtures/playground/java-11');

describe('Java check for the playground', () => {
  it('reads the major version from every `java -version` style', () => {
    expect(parseJavaMajor('openjdk version "17.0.15" 2025-04-15')).toBe(17);
    expect(parseJavaMajor('java version "1.8.0_402"')).toBe(8);
    expect(parseJavaMajor('openjdk version "21-ea" 2023-09-19')).toBe(21);
    expect(parseJavaMajor('openjdk version "25" 2025-09-16')).toBe(25);
    expect(parseJavaMajor('command not found')).toBeUndefined();
  });

  it('explains how to install Java when the command does not exist', async () => {
    expect(await checkJava('/nonexistent/java')).toEqual({ ok: false, message: JAVA_HELP });
  });

  it('names a too-old Java and still says how to fix it', async () => {
    const check = await checkJava(oldJava);
    expect(check).toEqual({ ok: false, message: `DynoTable found Java 11, which is too old. ${JAVA_HELP}` });
    const playground = createPlayground({ dataDir: '/nonexistent/never-created', javaCommand: oldJava });
    const status = await playground.start();
    expect(status.state).toBe('unavailable');
    expect(status.message).toContain('Java 11');
  });

  it('accepts this machine’s Java 17', async () => {
    const check = await checkJava();
    expect(check.ok && check.major).toBeGreaterThanOrEqual(17);
  });
});
