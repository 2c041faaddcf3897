import { describe, expect, it } from 'vitest';
import { APP_CSP, contentSecurityPolicy } from '../../../src/main/security/csp';

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((tokens) => tokens[0])
      .map(([name, ...sources]) => [name as string, sources]),
  );
}

describe('the content security policy', () => {
  const policy = directives(APP_CSP);

  it('denies everything not listed', () => {
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('runs only our own scripts: no eval, no inline script, no remote origin', () => {
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(APP_CSP).not.toContain('unsafe-eval');
    expect(APP_CSP).not.toContain('wasm-unsafe-eval');
    for (const directive of ['script-src', 'worker-src', 'connect-src']) {
      for (const source of policy.get(directive) ?? []) {
        expect(source, `${directive} ${source}`).not.toMatch(/^(https?:|wss?:|\*|blob:|data:)/);
      }
    }
  });

  it('never allows eval even for the dev server, and keeps dev allowances out of builds', () => {
    const dev = contentSecurityPolicy({ dev: true });
    expect(dev).not.toContain('unsafe-eval');
    expect(directives(dev).get('connect-src')).toContain('ws://localhost:*');
    expect(APP_CSP).not.toContain('localhost');
    expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
  });

  it('leaves frame-ancestors out of the <meta> variant, where browsers ignore it', () => {
    const meta = directives(contentSecurityPolicy({ delivery: 'meta' }));
    expect(meta.has('frame-ancestors')).toBe(false);
    expect(meta.get('script-src')).toEqual(["'self'"]);
  });
});
