import { randomBytes } from 'node:crypto';
import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A database of one's own on a shared DynamoDB Local. Without `-sharedDb`, DynamoDB Local keeps one
 * database per access key and region, and it does not check signatures: a proxy that rewrites the
 * key and region in each request's SigV4 scope puts every client behind it (whatever key and
 * region they sign with) in one database no other client of the instance sees — its own table
 * list, as a DynamoDB Local of its own would give, without starting a JVM.
 */
export interface KeyProxy {
  /** The proxy's address: give it to every client that should see this database. */
  endpoint: string;
  /** The access key the proxy signs as (DynamoDB Local names a file database `<key>_<region>.db`). */
  key: string;
  region: string;
  close(): Promise<void>;
}

// `Credential=<key>/<date>/<region>/<service>/aws4_request` in a SigV4 Authorization header.
const credentialScope = /Credential=[^/]*\/(\d{8})\/[^/]*\//;

/** DynamoDB Local's default region. */
const REGION = 'us-east-1';

export async function startKeyProxy(target: string, prefix = 'own'): Promise<KeyProxy> {
  // Letters and digits only: DynamoDB Local refuses anything else in a key id.
  const key = `${prefix}${randomBytes(8).toString('hex')}`;
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const signedAs = (headers: IncomingHttpHeaders): IncomingHttpHeaders => {
    const authorization = headers.authorization;
    if (!authorization) return headers;
    return {
      ...headers,
      authorization: authorization.replace(credentialScope, `Credential=${key}/$1/${REGION}/`),
    };
  };
  const server = createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: signedAs(incoming.headers),
        agent,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    // The connection drops, as it would if DynamoDB Local itself had gone away.
    forwarded.once('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    key,
    region: REGION,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
