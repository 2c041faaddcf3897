import type { AppError } from '../../shared/errors';
import { ErrorCodes } from '../../shared/errors';
import type { Connection } from '../../shared/ipc/connection';
import { describeEndpoint } from './describe-endpoint';

function whose(connection: Connection): string {
  if (connection.kind === 'profile') return `profile "${connection.profile ?? 'default'}"`;
  if (connection.kind === 'keys') return 'this connection';
  return 'the default credential chain';
}

function target(connection: Connection): string {
  if (connection.kind === 'playground') return 'the local playground';
  if (connection.endpoint) return describeEndpoint(connection.endpoint);
  return `AWS in ${connection.region}`;
}

/** The permission named in an AccessDenied message ("…not authorized to perform: dynamodb:ListTables…"). */
function deniedAction(awsMessage: unknown): string | undefined {
  return typeof awsMessage === 'string' ? /perform: ([\w-]+:[\w-]+)/.exec(awsMessage)?.[1] : undefined;
}

/**
 * Turns a failed "Test connection" into one sentence that says what is wrong and what to do.
 * The code stays the AWS name; only the words are ours.
 */
export function explainFailure(error: AppError, connection: Connection, identity?: string): string {
  const awsMessage = error.details?.awsMessage;
  switch (error.code) {
    case 'ECONNREFUSED':
      return connection.endpoint || connection.kind === 'playground'
        ? `Nothing answered at ${connection.endpoint ?? 'the local playground'}: the connection was refused. If this is DynamoDB Local or LocalStack, start it (or check the port), then test again.`
        : `Could not reach ${target(connection)}: the connection was refused. Check your firewall or proxy.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Could not find ${target(connection)}: the name did not resolve. Check your network connection, the region "${connection.region}" and the endpoint.`;
    case 'ETIMEDOUT':
    case 'ECONNRESET':
    case 'EHOSTUNREACH':
    case 'TimeoutError':
      return `No answer from ${target(connection)}. Check your network connection, VPN or proxy, then test again.`;
    case ErrorCodes.credentialsExpired:
      return `The AWS SSO session of ${whose(connection)} has expired or was never started. Choose "Sign in again" to renew it; your open tabs stay as they are.`;
    case 'CredentialsProviderError':
      return `No usable AWS credentials were found for ${whose(connection)}. ${typeof awsMessage === 'string' ? awsMessage : ''}`.trim();
    case 'UnrecognizedClientException':
    case 'InvalidClientTokenId':
      return `AWS did not recognise the access key of ${whose(connection)}: it may be mistyped, deactivated or deleted, or belong to another partition (China, GovCloud).`;
    case 'InvalidSignatureException':
    case 'SignatureDoesNotMatch':
      return `The secret access key of ${whose(connection)} does not match its access key id. Check the secret access key.`;
    case 'ExpiredToken':
    case 'ExpiredTokenException':
      return connection.kind === 'keys'
        ? 'The session token saved with these keys has expired. Edit the connection and enter fresh temporary keys.'
        : `The temporary credentials of ${whose(connection)} have expired. Refresh them (for SSO, choose "Sign in again") and test again.`;
    case 'AccessDeniedException':
    case 'AccessDenied': {
      // STS refused the MFA assume-role: the sentence is about the code, not DynamoDB.
      if (error.details?.mfaSerial !== undefined) return error.message;
      const action = deniedAction(awsMessage) ?? 'dynamodb:ListTables';
      const who = identity ? `Signed in as ${identity}, but this identity` : 'These credentials';
      return `${who} may not call ${action} in ${connection.region}, so DynoTable cannot list tables. Ask for that permission in the IAM policy, or open a table by name.`;
    }
    default:
      return error.message;
  }
}
