import { existsSync } from 'node:fs';
import { buildRendererIfNeeded } from './support/build-renderer';

/** Builds the renderer once for every e2e file; each file starts its own server and browser. */
export default function setup(): void {
  if (!existsSync('/usr/bin/chromium')) {
    throw new Error(
      "End-to-end tests need Debian's Chromium at /usr/bin/chromium: apt-get install -y chromium",
    );
  }
  buildRendererIfNeeded();
}
