import { createInterface } from 'node:readline';
import type { MfaPrompts, MfaRequest } from '../main/aws/mfa-prompts';
import { AppFailure, ErrorCodes } from '../shared/errors';

/** Where the CLI asks: stdin and stderr in real use, streams of a test's own otherwise. */
export interface Terminal {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Whether a person is at `input` who can type a code (stdin is a TTY). */
  isInteractive: boolean;
}

export function processTerminal(): Terminal {
  // stderr, not stdout: stdout carries the report or the rows, often into a file or a pipe.
  return { input: process.stdin, output: process.stderr, isInteractive: process.stdin.isTTY };
}

// A typo costs a retype, not a rerun; a stream that keeps sending lines is not a person.
const ATTEMPTS = 3;

/**
 * `fromIni`'s mfaCodeProvider for the command line: asks on the terminal, once per role session
 * (createProfileCredentials keeps the session and shares one prompt between concurrent
 * requests). The code goes to STS only; it is never written to the output, a progress line or
 * an error. Without a terminal (CI, a pipe) it fails at once, rather than the SDK's own
 * "no MFA code callback", with what the person can do instead. `signal` is the command's Ctrl+C,
 * which the CLI catches to cancel its work: without it, a prompt would hold the process.
 */
export function terminalMfaPrompt(terminal: Terminal, signal: AbortSignal): Pick<MfaPrompts, 'ask'> {
  return {
    async ask({ serialNumber, profile }: MfaRequest) {
      if (!terminal.isInteractive)
        throw new AppFailure(
          ErrorCodes.mfaCodeRequired,
          `Profile "${profile}" needs an MFA code for ${serialNumber}, and stdin is not a terminal to ask for it: run the command in a terminal, or use a profile without mfa_serial (in CI, role credentials from the environment).`,
        );
      const question = `MFA code for ${serialNumber} (profile "${profile}"): `;
      // One reader for every attempt: a second one would lose lines the first had buffered.
      const lines = createInterface({ input: terminal.input, terminal: false });
      const onAbort = () => lines.close();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        terminal.output.write(question);
        let attempts = 0;
        for await (const line of lines) {
          const code = line.trim();
          if (/^\d{6}$/.test(code)) return code;
          if (++attempts === ATTEMPTS) break;
          terminal.output.write(`An MFA code is the 6 digits your device shows now.\n${question}`);
        }
      } finally {
        signal.removeEventListener('abort', onAbort);
        // Pauses stdin, so the process can exit once the command is done.
        lines.close();
      }
      if (signal.aborted)
        throw new AppFailure(
          ErrorCodes.cancelled,
          `The MFA code for ${serialNumber} was not entered (cancelled), so profile "${profile}" did not assume its role and nothing was sent.`,
        );
      throw new AppFailure(
        ErrorCodes.mfaCodeRequired,
        `No MFA code for ${serialNumber} was entered, so profile "${profile}" did not assume its role and nothing was sent. Run the command again to be asked for a new code.`,
      );
    },
  };
}
