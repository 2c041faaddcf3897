/**
 * Writes docs/API.md from the contract (schemas, via zod's JSON Schema export) and
 * src/shared/ipc/examples.ts (one example per channel). `--check` fails when the file is stale.
 *   npx tsx scripts/gen-api-docs.ts [--check]
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { z } from 'zod';
import { attributeValueTreeSchema, itemSchema } from '../src/shared/dynamo/attribute-value';
import { ErrorCodes } from '../src/shared/errors';
import { connectionSchema } from '../src/shared/ipc/connection';
import { channels, contract, type Channel } from '../src/shared/ipc/contract';
import { eventExamples, examples } from '../src/shared/ipc/examples';
import { tableSummarySchema } from '../src/shared/ipc/tables';
import { apiIntro } from './gen-api-docs-intro';

export const API_DOC_PATH = path.resolve(__dirname, '..', 'docs', 'API.md');

type JsonSchema = Record<string, unknown> & { $defs?: Record<string, unknown> };

/** Types many channels share are written once, under "Shared types", and referenced by name. */
function sharedRegistry() {
  const registry = z.registry<{ id: string }>();
  registry.add(attributeValueTreeSchema, { id: 'AttributeValue' });
  registry.add(itemSchema, { id: 'Item' });
  registry.add(connectionSchema, { id: 'Connection' });
  registry.add(tableSummarySchema, { id: 'TableSummary' });
  return registry;
}

function toSchema(schema: z.ZodType, io: 'input' | 'output', shared: Map<string, unknown>): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    metadata: sharedRegistry(),
  }) as JsonSchema;
  delete json.$schema;
  const defs = json.$defs ?? {};
  delete json.$defs;
  for (const [id, def] of Object.entries(defs)) if (!shared.has(id)) shared.set(id, def);
  return json;
}

const block = (language: string, text: string) => `\`\`\`${language}\n${text}\n\`\`\``;
const jsonBlock = (value: unknown) => block('json', JSON.stringify(value, null, 2));
const anchor = (channel: string) => channel.replace(/[^a-z0-9]+/gi, '').toLowerCase();

function channelSection(channel: Channel, shared: Map<string, unknown>): string {
  const example = examples[channel];
  const { input, output } = contract[channel];
  const done = 'done' in contract[channel] ? contract[channel].done : undefined;
  return [
    `### \`${channel}\``,
    '',
    `\`POST /api/${channel}\` — ${example.summary}`,
    ...(example.notes ? ['', example.notes] : []),
    '',
    'Request body:',
    '',
    jsonBlock(example.input),
    '',
    'Response:',
    '',
    jsonBlock({ ok: true, value: example.output }),
    '',
    '<details><summary>Input and output schemas (JSON Schema)</summary>',
    '',
    'Input:',
    '',
    jsonBlock(toSchema(input as z.ZodType, 'input', shared)),
    '',
    'Output:',
    '',
    jsonBlock(toSchema(output as z.ZodType, 'output', shared)),
    ...(done
      ? [
          '',
          "Done value (the `value` of the operation's `done` event; none when empty):",
          '',
          jsonBlock(toSchema(done as z.ZodType, 'output', shared)),
        ]
      : []),
    '',
    '</details>',
  ].join('\n');
}

function channelIndex(): string {
  const domains = new Map<string, Channel[]>();
  for (const channel of channels) {
    const domain = channel.split(':')[0] ?? channel;
    domains.set(domain, [...(domains.get(domain) ?? []), channel]);
  }
  return [...domains.entries()]
    .map(([domain, list]) => `- **${domain}**: ${list.map((c) => `[\`${c}\`](#${anchor(c)})`).join(', ')}`)
    .join('\n');
}

/** The whole of docs/API.md, formatted the way `prettier --check` expects it. */
export async function renderApiDocs(): Promise<string> {
  const shared = new Map<string, unknown>();
  const sections = channels.map((channel) => channelSection(channel, shared));
  const sharedTypes = [...shared.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, def]) => `### ${id}\n\n${jsonBlock(def)}`)
    .join('\n\n');
  const markdown = [
    apiIntro({ errorCodes: Object.values(ErrorCodes), events: eventExamples.map((e) => JSON.stringify(e)) }),
    '## Channels',
    '',
    channelIndex(),
    '',
    sections.join('\n\n'),
    '',
    '## Shared types',
    '',
    'Schemas above refer to these as `#/$defs/<Name>`.',
    '',
    sharedTypes,
    '',
  ].join('\n');
  const config = (await resolveConfig(API_DOC_PATH)) ?? {};
  return format(markdown, { ...config, parser: 'markdown', filepath: API_DOC_PATH });
}

async function main(): Promise<void> {
  const text = await renderApiDocs();
  if (process.argv.includes('--check')) {
    const current = await readFile(API_DOC_PATH, 'utf8').catch(() => '');
    if (current !== text) {
      console.error('docs/API.md is out of date: run `npx tsx scripts/gen-api-docs.ts`.');
      process.exit(1);
    }
    console.log('docs/API.md is up to date.');
    return;
  }
  await writeFile(API_DOC_PATH, text);
  console.log(`wrote ${path.relative(process.cwd(), API_DOC_PATH)} (${channels.length} channels)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
