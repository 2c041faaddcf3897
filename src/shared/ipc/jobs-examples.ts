import type { ChannelExample } from './examples';
import type { jobChannels } from './jobs';

type JobExamples = { [C in keyof typeof jobChannels]: ChannelExample<C> };

export const jobExamples: JobExamples = {
  'jobs:stopped': {
    summary:
      'The imports and purges of a connection that did not finish, each with where it stopped; an unreadable record is set aside and named.',
    input: { connectionId: 'playground' },
    output: {
      jobs: [
        {
          kind: 'import',
          id: 'import-m1x2y3-1a2b3c4d',
          connectionId: 'playground',
          table: 'Orders',
          state: 'interrupted',
          startedAt: '2026-12-07T01:00:00.000Z',
          updatedAt: '2026-12-07T01:00:09.000Z',
          items: 4200,
          sentence:
            'The import of orders.jsonl into Orders stopped when DynoTable closed. Lines 1–4,400 of the file are done: 4,200 items written, 195 already in the table, 5 with problems. Resume goes on at line 4,401 of the same file, unless the file changed since.',
          canResume: true,
        },
      ],
      setAside: [],
    },
  },
  'jobs:forget': {
    summary: 'Forgets a stopped import or purge; what it wrote or deleted stays.',
    input: { kind: 'import', id: 'import-m1x2y3-1a2b3c4d' },
    output: { forgotten: true },
  },
};
