import { afterAll } from 'vitest';

// A setup file of the integration project, which runs its files with `isolate: false`: one worker
// process runs file after file, so what a file leaves in process.env (an endpoint, a credentials
// file, a profile) would reach the files after it. Each file ends with process.env as it began,
// whether its own afterAll put things back or not. Registered before the file's hooks, so it runs
// after them (vitest runs afterAll hooks in reverse order).
const before = new Map(Object.entries(process.env));

afterAll(() => {
  for (const name of Object.keys(process.env))
    if (!before.has(name)) Reflect.deleteProperty(process.env, name);
  for (const [name, value] of before) if (process.env[name] !== value) process.env[name] = value;
});
