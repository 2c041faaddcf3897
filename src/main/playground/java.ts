import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const MIN_JAVA = 17;

export const JAVA_HELP =
  "The local playground runs Amazon's DynamoDB Local, which needs Java 17 or newer. Install it (for example " +
  '`sudo apt install openjdk-17-jre`, `brew install openjdk@17`, or https://adoptium.net) and choose Local ' +
  'playground again. Everything else in DynoTable works without it.';

export type JavaCheck = { ok: true; command: string; major: number } | { ok: false; message: string };

/** The major version from `java -version` output: `"17.0.15"` → 17, `"1.8.0_402"` → 8, `"21-ea"` → 21. */
export function parseJavaMajor(output: string): number | undefined {
  const match = /version "(\d+)(?:\.(\d+))?[^"]*"/.exec(output);
  if (!match) return undefined;
  const first = Number(match[1]);
  return first === 1 && match[2] !== undefined ? Number(match[2]) : first;
}

/**
 * Where to look for java when the user did not name one. Homebrew's openjdk@17 is keg-only (not
 * on PATH) and apps started from a desktop launcher may not see the shell's PATH, so following
 * our own install advice must be enough without any symlinking.
 */
export function javaCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  const exe = process.platform === 'win32' ? 'java.exe' : 'java';
  const candidates = [env.JAVA_HOME ? path.join(env.JAVA_HOME, 'bin', exe) : undefined, 'java'];
  if (process.platform === 'darwin') {
    for (const prefix of ['/opt/homebrew/opt', '/usr/local/opt']) {
      for (const keg of ['openjdk@21', 'openjdk@17', 'openjdk']) candidates.push(`${prefix}/${keg}/bin/java`);
    }
  }
  return candidates.filter((c): c is string => c !== undefined && (c === 'java' || existsSync(c)));
}

function versionOf(command: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    // `java -version` prints to stderr; bounded so a hung wrapper script cannot stall the start.
    execFile(command, ['-version'], { timeout: 15_000, windowsHide: true }, (error, stdout, stderr) => {
      // A string code (ENOENT, EACCES) means no runnable java here; a hung one was killed.
      const isUnusable = error !== null && (typeof error.code === 'string' || error.killed);
      resolve(isUnusable ? undefined : parseJavaMajor(`${stderr}\n${stdout}`));
    });
  });
}

/** Finds a Java new enough for DynamoDB Local, or a sentence a person can act on. */
export async function checkJava(javaCommand?: string): Promise<JavaCheck> {
  const candidates = javaCommand ? [javaCommand] : javaCandidates();
  let newestOld: number | undefined;
  for (const command of candidates) {
    const major = await versionOf(command);
    if (major === undefined) continue;
    if (major >= MIN_JAVA) return { ok: true, command, major };
    newestOld = Math.max(newestOld ?? 0, major);
  }
  if (newestOld !== undefined)
    return { ok: false, message: `DynoTable found Java ${newestOld}, which is too old. ${JAVA_HELP}` };
  return { ok: false, message: JAVA_HELP };
}
