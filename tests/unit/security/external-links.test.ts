import { describe, expect, it } from 'vitest';
import { isAllowedExternalUrl } from '../../../src/main/security/external-links';

describe('isAllowedExternalUrl', () => {
  it.each([
    'https://aws.amazon.com/dynamodb/pricing/',
    'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Introduction.html',
    'https://console.aws.amazon.com/dynamodbv2/home?region=eu-west-1#tables',
    'https://eu-west-1.console.aws.amazon.com/dynamodbv2/home',
    'https://my-company.awsapps.com/start/#/device?user_code=ABCD-EFGH',
    'https://device.sso.us-east-1.amazonaws.com/?user_code=ABCD-EFGH',
    'https://adoptium.net/temurin/releases/?version=17',
    'https://github.com/dynotable/dynotable/issues',
    'https://DOCS.AWS.AMAZON.COM/path',
  ])('opens %s', (url) => {
    expect(isAllowedExternalUrl(url)).toBe(true);
  });

  it.each([
    ['plain http', 'http://aws.amazon.com/'],
    ['file URLs', 'file:///etc/passwd'],
    ['javascript URLs', 'javascript:alert(1)'],
    ['data URLs', 'data:text/html,<script>alert(1)</script>'],
    ['custom protocols', 'ms-msdt:/id PCWDiagnostic'],
    ['a lookalike suffix', 'https://aws.amazon.com.evil.example/'],
    ['a lookalike prefix', 'https://evilaws.amazon.com/'],
    ['a lookalike of github', 'https://github.com.evil.example/'],
    ['a host that only contains an allowed name', 'https://notgithub.com/'],
    ['a bare suffix', 'https://amazonaws.com/'],
    ['userinfo that hides the real host', 'https://aws.amazon.com@evil.example/'],
    ['credentials in the URL', 'https://user:pass@github.com/'],
    ['an unusual port', 'https://github.com:8443/'],
    ['a trailing-dot host', 'https://github.com./'],
    ['a raw IP address', 'https://52.94.236.248/'],
    ['something that is not a URL', 'not a url'],
    ['an empty string', ''],
    ['an absurdly long URL', `https://github.com/${'a'.repeat(5000)}`],
  ])('refuses %s', (_why, url) => {
    expect(isAllowedExternalUrl(url)).toBe(false);
  });
});
