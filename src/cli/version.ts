import { version } from '../../package.json';

/** The package version, inlined by the bundler so the CLI never reads package.json at run time. */
export const cliVersion: string = version;
