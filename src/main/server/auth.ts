import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const TOKEN_COOKIE = 'dynotable_token';

/** A fresh secret per launch: 32 random bytes, URL-safe so it can ride in the first link. */
export function createToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Constant-time comparison. Hashing both sides first gives equal lengths, so timingSafeEqual
 * never throws and the length of the real token does not leak through an early return.
 */
export function tokensMatch(candidate: string | undefined, token: string): boolean {
  if (candidate === undefined || candidate.length === 0 || candidate.length > 512) return false;
  const a = createHash('sha256').update(candidate).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The token a request presents: `Authorization: Bearer …` (scripts) or the cookie (the browser). */
export function presentedToken(request: IncomingMessage): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization?.startsWith('Bearer ')) return authorization.slice('Bearer '.length).trim();
  return cookieValue(request.headers.cookie, TOKEN_COOKIE);
}

export function isAuthorized(request: IncomingMessage, token: string): boolean {
  return tokensMatch(presentedToken(request), token);
}

/**
 * HttpOnly keeps the token away from page scripts; SameSite=Strict keeps other sites from
 * riding on it. No Max-Age: the cookie dies with the browser session, the token with the process.
 */
export function tokenCookie(token: string): string {
  return `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}
