import 'node:domain';
import { afterAll } from 'vitest';
import { leaksSince, processState } from '../support/process-state';

// A setup file of the integration project, which runs its files with `isolate: false`: one worker
// process runs file after file, so what a file leaves behind reaches the files after it. Each
// file ends with process.env as it began, whether its own afterAll put things back or not; and a
// file that leaves a listener on `process`, a server listening or a global replaced fails, naming
// it, rather than making a later file pass or fail by the order the files happened to run in.
// Registered before the file's hooks, so it runs after them (vitest runs afterAll hooks in reverse
// order).
//
// node:domain is loaded here, before any file: the old aws-sdk v2 that the dynamoose releases
// bring loads it, and loading it hooks `newListener` and `removeListener` on process for good.
// Loaded up front, every file meets the same process whichever of them came first.
const env = new Map(Object.entries(process.env));
const state = processState();

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!env.has(name)) Reflect.deleteProperty(process.env, name);
  for (const [name, value] of env) if (process.env[name] !== value) process.env[name] = value;
  const leaks = leaksSince(state);
  if (leaks.length > 0)
    throw new Error(
      `This file left process-wide state behind for the next file in its worker: ${leaks.join('; ')}. Put it back in the file's afterAll.`,
    );
});
