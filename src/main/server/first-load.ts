import type { IncomingMessage, ServerResponse } from 'node:http';
import { tokenCookie, tokensMatch } from './auth';
import { unauthorized } from './request-guard';
import { sendHtml, sendRefusal } from './responses';

/** The printed link: a page load (not an API call) carrying `?token=`. */
export function isFirstLoad(request: IncomingMessage, url: URL): boolean {
  return (
    url.searchParams.has('token') &&
    (request.method === 'GET' || request.method === 'HEAD') &&
    !url.pathname.startsWith('/api/')
  );
}

/**
 * Trades the token in the link for the cookie and drops it from the address bar, so it does not
 * linger in history, bookmarks or screenshots. Redirects always go to '/', never to the requested
 * path: '//evil.example' would be an open redirect.
 */
export function answerFirstLoad(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  token: string,
): void {
  if (!tokensMatch(url.searchParams.get('token') ?? undefined, token)) {
    sendRefusal(request, response, unauthorized());
    return;
  }
  response.setHeader('Set-Cookie', tokenCookie(token));
  const site = request.headers['sec-fetch-site'];
  if (site === undefined || site === 'none' || site === 'same-origin') {
    response.writeHead(302, { Location: '/' });
    response.end();
    return;
  }
  // The link was followed from another site (a web terminal, a chat): a redirect would keep that
  // cross-site context, so the Strict cookie would not be sent and the next check would refuse.
  // A refresh from our own page starts a same-origin navigation instead.
  sendHtml(
    response,
    200,
    'Opening DynoTable…',
    'Opening DynoTable…',
    '<meta http-equiv="refresh" content="0;url=/">',
  );
}
