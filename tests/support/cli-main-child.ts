import { main } from '../../src/cli/index';

/**
 * The CLI's main() without bin/dynotable's forced exit: the process ends only when nothing holds
 * it open, so a test can tell that a command closed every worker, client and timer it started.
 */
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
