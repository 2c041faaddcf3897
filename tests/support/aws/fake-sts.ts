import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './http-json';

export interface FakeSts {
  endpoint: string;
  close(): Promise<void>;
}

/**
 * STS GetCallerIdentity over its real wire protocol (AWS query in, XML out). The caller is
 * recognised by the access key id in the SigV4 Authorization header, as AWS does; any other
 * key gets the InvalidClientTokenId answer AWS gives for an unknown key.
 */
export async function startFakeSts(identities: Record<string, string>): Promise<FakeSts> {
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const keyId = /Credential=([^/]+)\//.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const arn = identities[keyId];
      res.setHeader('content-type', 'text/xml');
      if (!new URLSearchParams(body).get('Action')?.startsWith('GetCallerIdentity')) {
        res.writeHead(400).end(errorXml('InvalidAction', 'Only GetCallerIdentity is implemented here.'));
      } else if (!arn) {
        res
          .writeHead(403)
          .end(errorXml('InvalidClientTokenId', 'The security token included in the request is invalid.'));
      } else {
        const account = arn.split(':')[4];
        res
          .writeHead(200)
          .end(
            `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>${arn}</Arn><UserId>AIDAEXAMPLE</UserId><Account>${account}</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>fake</RequestId></ResponseMetadata></GetCallerIdentityResponse>`,
          );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function errorXml(code: string, message: string): string {
  return `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>fake</RequestId></ErrorResponse>`;
}
