import type { IncomingMessage, ServerResponse } from 'node:http';
import { APP_CSP } from '../security/csp';
import type { GuardRefusal } from './request-guard';

/** The same policy as the Electron window (one definition in security/csp.ts), sent as a header. */
export const CONTENT_SECURITY_POLICY = APP_CSP;

/** Sent on every response, refusals included. */
export function setSecurityHeaders(response: ServerResponse): void {
  response.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('X-Frame-Options', 'DENY');
  // Other origins may not embed or read our responses even through no-cors loads.
  response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  response.setHeader('Cache-Control', 'no-store');
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function sendHtml(
  response: ServerResponse,
  status: number,
  title: string,
  body: string,
  head = '',
): void {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${head}</head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p></body></html>`;
  response.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
  });
  response.end(html);
}

/** Browsers get a page a person can read; scripts and tests get the usual error envelope. */
export function sendRefusal(request: IncomingMessage, response: ServerResponse, refusal: GuardRefusal): void {
  const wantsHtml = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
  if (wantsHtml) {
    sendHtml(response, refusal.status, 'DynoTable refused this request', refusal.message);
    return;
  }
  sendJson(response, refusal.status, {
    ok: false,
    error: { code: refusal.code, message: refusal.message, retryable: false },
  });
}
