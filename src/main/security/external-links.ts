/**
 * Which links may leave the app for the user's browser. Kept free of Electron so browser mode
 * and the CLI (plain Node) share the same rule; Electron's opener lives in open-external.ts.
 *
 * Only https, only the hosts DynoTable itself links to: AWS documentation and consoles, the
 * SSO device-verification pages (*.awsapps.com, *.amazonaws.com), Java downloads, the project.
 */
const exactHosts = new Set(['aws.amazon.com', 'adoptium.net', 'github.com']);
const hostSuffixes = ['.aws.amazon.com', '.awsapps.com', '.amazonaws.com'];

/** Longer than any link we print; a bound so a hostile string costs nothing to reject. */
const maxUrlLength = 2048;

export function isAllowedExternalUrl(url: string): boolean {
  if (typeof url !== 'string' || url.length > maxUrlLength) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:') return false;
  // `https://aws.amazon.com@evil.example/` parses to host evil.example, but a link carrying
  // credentials or an odd port is never one of ours, so refuse it outright.
  if (parsed.username !== '' || parsed.password !== '' || parsed.port !== '') return false;
  return isAllowedHost(parsed.hostname);
}

function isAllowedHost(hostname: string): boolean {
  // URL lower-cases and punycodes the host; a trailing dot ("aws.amazon.com.") is refused
  // because it is not the spelling of any host on the list.
  if (exactHosts.has(hostname)) return true;
  return hostSuffixes.some((suffix) => hostname.endsWith(suffix) && hostname.length > suffix.length);
}
