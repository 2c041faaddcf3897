import type { IncomingMessage } from 'node:http';

export interface GuardRefusal {
  status: number;
  code: string;
  message: string;
}

const OPEN_PRINTED = 'Open the address that `dynotable serve` printed.';

/**
 * Host must name the loopback address we bound. A DNS-rebinding page reaches us under its own
 * host name (evil.example:PORT); another local port is another server, not us.
 */
export function checkHost(
  request: IncomingMessage,
  port: number,
  hint = OPEN_PRINTED,
): GuardRefusal | undefined {
  const host = request.headers.host?.toLowerCase();
  if (host === `127.0.0.1:${port}` || host === `localhost:${port}`) return undefined;
  return {
    status: 421,
    code: 'ForeignHost',
    message: `DynoTable answers only to http://127.0.0.1:${port} and http://localhost:${port}. ${hint}`,
  };
}

/**
 * Origin, when present, must be our own origin: CSRF from any other page, including pages on
 * other local ports, which browsers count as same-site and send SameSite=Strict cookies to.
 * Sec-Fetch-Site, when present, must be same-origin or none (typed address, bookmark); this also
 * covers no-cors loads such as <img src> and <script src>, which carry no Origin header.
 */
export function checkSite(
  request: IncomingMessage,
  port: number,
  hint = OPEN_PRINTED,
): GuardRefusal | undefined {
  const origin = request.headers.origin;
  if (
    origin !== undefined &&
    origin !== `http://127.0.0.1:${port}` &&
    origin !== `http://localhost:${port}`
  ) {
    return {
      status: 403,
      code: 'ForeignOrigin',
      message: 'DynoTable refused a request sent by another web page.',
    };
  }
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return {
      status: 403,
      code: 'ForeignOrigin',
      message: `DynoTable refused a request started by another site. ${hint}`,
    };
  }
  return undefined;
}

export function unauthorized(): GuardRefusal {
  return {
    status: 401,
    code: 'Unauthorized',
    message: `This DynoTable needs the access token of this launch. ${OPEN_PRINTED}`,
  };
}
