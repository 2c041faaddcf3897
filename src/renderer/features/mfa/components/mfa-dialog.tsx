import { useState } from 'react';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { ErrorMessage } from '../../../ui/error-message';
import { Field } from '../../../ui/field';
import { useMfaStore, type MfaPromptState } from '../store';
import '../mfa.css';

const CODE_LENGTH = 6;

/** What is wrong with the code so far; `isFinal` once the user tried to send it or left the field. */
export function codeProblem(code: string, isFinal: boolean): string | undefined {
  if (/\D/.test(code)) return 'Only digits: the code is the 6 digits your MFA device shows.';
  if (code.length > CODE_LENGTH || (isFinal && code.length !== CODE_LENGTH)) {
    return code.length === 0
      ? 'Enter the 6 digits your MFA device shows.'
      : `The code has 6 digits; this has ${code.length}.`;
  }
  return undefined;
}

function MfaCodeForm({ prompt }: { prompt: MfaPromptState }) {
  const submit = useMfaStore((state) => state.submit);
  const cancel = useMfaStore((state) => state.cancel);
  const [code, setCode] = useState('');
  const [isFinal, setFinal] = useState(false);
  const problem = codeProblem(code, isFinal);
  const close = () => void cancel(prompt.promptId);
  const send = () => {
    setFinal(true);
    if (!codeProblem(code, true)) void submit(prompt.promptId, code);
  };

  return (
    <Dialog
      title="MFA code"
      onClose={close}
      width="sm"
      footer={
        <>
          <Button variant="ghost" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="mfa-code-form" isBusy={prompt.isSending}>
            Continue
          </Button>
        </>
      }
    >
      <form
        id="mfa-code-form"
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <div className="mfa-prompt">
          <p>
            Enter the MFA code for <code className="wrap-anywhere">{prompt.serialNumber}</code>
          </p>
          <p className="muted small">
            Profile “{prompt.profile}” assumes its role with multi-factor authentication. The code goes to AWS
            once and is not kept.
          </p>
        </div>
        <Field
          label="Code"
          htmlFor="mfa-code"
          error={problem}
          hint="The 6 digits your authenticator app or hardware token shows now."
        >
          <input
            id="mfa-code"
            className="input mono mfa-code-input"
            value={code}
            inputMode="numeric"
            autoComplete="one-time-code"
            spellCheck={false}
            autoFocus
            aria-invalid={problem !== undefined}
            // Authenticator apps show "482 915"; a pasted space is not the user's mistake.
            onChange={(event) => setCode(event.target.value.replace(/\s/g, ''))}
            onBlur={() => setFinal(code.length > 0)}
          />
        </Field>
        {prompt.error ? <ErrorMessage error={prompt.error} compact /> : null}
      </form>
    </Dialog>
  );
}

/**
 * Shown over whatever is open when a call needs an MFA code: the call waits in main until the
 * code is sent or the dialog is cancelled (or five minutes pass).
 */
export function MfaDialog() {
  const prompt = useMfaStore((state) => state.prompts[0]);
  // Keyed by prompt: a new prompt (after a wrong code) starts with an empty field.
  return prompt ? <MfaCodeForm key={prompt.promptId} prompt={prompt} /> : null;
}
