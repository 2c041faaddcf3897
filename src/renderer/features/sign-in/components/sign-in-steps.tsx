import { Button } from '../../../ui/button';
import { openExternal } from '../../app-info/store';

export interface SignInStepsProps {
  verificationUrl?: string;
  userCode?: string;
  /** DynoTable already opened the page in the user's browser (desktop app). */
  isPageOpened?: boolean;
}

/**
 * The device sign-in as two numbered steps: find the page, check the code and allow. The code
 * is what the user compares against the browser, so it is the biggest thing in the dialog; the
 * address is written out because in browser mode the page may be opened on another device.
 */
export function SignInSteps({ verificationUrl, userCode, isPageOpened }: SignInStepsProps) {
  return (
    <div className="sign-in-waiting">
      <ol className="sign-in-steps">
        <li>
          <p>
            {isPageOpened
              ? 'Your browser opened the IAM Identity Center sign-in page. If you cannot find it, open it again:'
              : 'Open the IAM Identity Center sign-in page in your browser and sign in if asked.'}
          </p>
          {verificationUrl ? (
            <div className="sign-in-link">
              <Button
                variant={isPageOpened ? 'secondary' : 'primary'}
                size="sm"
                onClick={() => void openExternal(verificationUrl)}
              >
                Open the sign-in page
              </Button>
              <code className="sign-in-url" title="The sign-in page, to copy into another browser">
                {verificationUrl}
              </code>
            </div>
          ) : null}
        </li>
        <li>
          <p>Check that the page shows this code, then choose Allow:</p>
          {userCode ? (
            <p className="user-code" data-testid="user-code">
              {userCode}
            </p>
          ) : null}
        </li>
      </ol>
      <p className="sign-in-pending muted" role="status">
        <span className="spinner" aria-hidden="true" />
        Waiting for you to choose Allow. DynoTable carries on by itself.
      </p>
    </div>
  );
}
