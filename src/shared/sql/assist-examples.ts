import type { ChannelExample } from '../ipc/examples';
import type { sqlAssistChannels } from '../ipc/sql-assist';

type SqlAssistExamples = { [C in keyof typeof sqlAssistChannels]: ChannelExample<C> };

/**
 * Examples of the SQL workbench's AI tasks for docs/API.md (checked against the schemas by the API
 * docs test), named as the workbench shows them: "SQL from words" (task `ask`), "Fix with AI"
 * (`fix`), "Explain in words" (`explain`).
 */
export const sqlAssistExamples: SqlAssistExamples = {
  'sql:assist': {
    summary:
      'The SQL workbench’s “SQL from words” (task `ask`: a question → a statement), “Fix with AI” (task `fix`: a failed statement and its error → a corrected one) or “Explain in words” (task `explain`: a plan in words), on the connection’s Bedrock settings. Nothing runs.',
    input: {
      connectionId: 'playground',
      requestId: 'assist_R4nd0mId',
      task: 'ask',
      question: 'Which five users spent the most?',
      includeSamples: false,
    },
    output: { started: true },
    notes:
      'Progress arrives under the requestId; `done.value` holds the proposal: `statement`, `explanation`, its `plan` (or `planError`), `retried` when the first answer did not plan and was sent back once, `sent` (every message exactly as sent), `usage` and `costUsd`.',
  },
  'sql:assistContext': {
    summary:
      'What “SQL from words”, “Fix with AI” and “Explain in words” (tasks `ask`, `fix`, `explain`) send about the catalog, which “What is sent?” shows: the system prompt and the table, view and attribute names with their types (values only with includeSamples).',
    input: { connectionId: 'playground', includeSamples: false },
    output: {
      system: 'You write SQL for DynoTable’s SQL workbench…',
      context:
        'Tables of this connection:\n- table "DynoTableSample": partition key PK (S), sort key SK (S), about 352 items\n  attributes:\n    total (N)',
    },
  },
};
