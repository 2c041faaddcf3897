import { randomUUID } from 'node:crypto';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { EventBus } from '../core/events';
import type { OperationOutcome, OperationRegistry } from '../core/operations';

export interface MfaRequest {
  /** `mfa_serial` of the profile: the device ARN, or a hardware token's serial. */
  serialNumber: string;
  profile: string;
}

export interface MfaPrompts {
  /** Asks every open window or tab for a code; rejects with a sentence on cancel or timeout. */
  ask(request: MfaRequest): Promise<string>;
  /** Hands a code to a waiting prompt; one that is no longer waiting is refused with a sentence. */
  answer(promptId: string, code: string): void;
  cancel(promptId: string): void;
}

// Long enough to find the phone and open the authenticator app; a forgotten prompt must not
// hold the request that needed it forever.
export const MFA_PROMPT_TIMEOUT_MS = 5 * 60_000;

const received: OperationOutcome = {
  progress: { items: 0, pages: 0, consumedCapacity: 0, message: 'MFA code received.' },
};

type Outcome = { code: string } | { failure: AppFailure };

function duration(ms: number): string {
  const [count, unit] =
    ms >= 60_000 ? [Math.round(ms / 60_000), 'minute'] : [Math.round(ms / 1000), 'second'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/**
 * The handshake behind `fromIni({ mfaCodeProvider })`: each prompt is an operation (its id is
 * the requestId), so it reaches the renderer as an `mfa` event on the one event stream and ends
 * in exactly one of done | cancelled | error. The code only passes through, to the SDK.
 */
export function createMfaPrompts(
  operations: OperationRegistry,
  events: Pick<EventBus, 'hasListeners'>,
  options: { timeoutMs?: number } = {},
): MfaPrompts {
  const timeoutMs = options.timeoutMs ?? MFA_PROMPT_TIMEOUT_MS;
  const waiting = new Map<string, (code: string) => void>();

  function ask({ serialNumber, profile }: MfaRequest): Promise<string> {
    const role = `profile "${profile}" did not assume its role and the request was not sent`;
    if (!events.hasListeners()) {
      return Promise.reject(
        new AppFailure(
          ErrorCodes.mfaCodeRequired,
          `Profile "${profile}" needs an MFA code for ${serialNumber}, and no DynoTable window is open to ask for it. Open DynoTable (or \`dynotable serve\`) and try again.`,
        ),
      );
    }
    const promptId = `mfa-${randomUUID()}`;
    const expiresAt = new Date(Date.now() + timeoutMs).toISOString();
    return new Promise<string>((resolve, reject) => {
      operations.start(
        promptId,
        (run) =>
          new Promise<OperationOutcome>((done, fail) => {
            const finish = (outcome: Outcome): void => {
              clearTimeout(timer);
              run.signal.removeEventListener('abort', onAbort);
              waiting.delete(promptId);
              if ('code' in outcome) {
                resolve(outcome.code);
                done(received);
              } else {
                reject(outcome.failure);
                fail(outcome.failure);
              }
            };
            const timer = setTimeout(() => {
              finish({
                failure: new AppFailure(
                  ErrorCodes.mfaCodeRequired,
                  `No MFA code for ${serialNumber} was entered within ${duration(timeoutMs)}, so ${role}. Try again to be asked for a new code.`,
                  true,
                ),
              });
            }, timeoutMs);
            // A CLI that is done must not wait minutes for a prompt nobody will answer.
            timer.unref();
            const onAbort = (): void =>
              finish({
                failure: new AppFailure(
                  ErrorCodes.cancelled,
                  `The MFA code for ${serialNumber} was not entered (cancelled), so ${role}. Try again to be asked for a new code.`,
                  true,
                ),
              });
            run.signal.addEventListener('abort', onAbort, { once: true });
            waiting.set(promptId, (code) => finish({ code }));
            run.emit({ type: 'mfa', mfa: { serialNumber, profile, expiresAt } });
          }),
      );
    });
  }

  function notWaiting(): AppFailure {
    return new AppFailure(
      ErrorCodes.notFound,
      'That MFA prompt is no longer waiting: it was answered in another window, cancelled, or it expired. Try again to be asked for a new code.',
    );
  }

  return {
    ask,
    answer(promptId, code) {
      const deliver = waiting.get(promptId);
      if (!deliver) throw notWaiting();
      deliver(code);
    },
    cancel(promptId) {
      if (!waiting.has(promptId)) throw notWaiting();
      operations.cancel(promptId);
    },
  };
}
