import { loadSchemaReport, startSchemaAnalysis } from '../../main/schema/service';
import { pipelineJson, pipelineMarkdown } from '../../main/schema/schema-output';
import { generateModel, type ModelFormat, scopeOf } from '../../shared/schema/model-gen';
import { generateOrmModel } from '../../shared/schema/orm-model';
import { emit, parseFlags } from './command-io';
import { runMigrationCommand, runResumableJob } from './migration-command';
import {
  CONNECTION_HELP,
  connectionOptions,
  positiveNumber,
  requireTable,
  resumeIdOf,
} from './migration-flags';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import { UsageError } from './types';

const HELP = `Usage: dynotable schema --table T [options]

What every attribute path of a table (or index) holds, per entity: how many items have it, the
share of each DynamoDB type, string formats, number ranges, set sizes and distinct values, with
warnings (several types, ISO next to epoch, dotted top-level names, items near 400 KB).
By default a sample: the first page of random Scan segments out of many, spread over the table.
The read is the app's: it is listed in the Schema view of a saved --connection. Ctrl+C stops a
--full scan resumably and prints its ID (a sample is read again from the start).
Exit code: 0 done, 2 error (one line on stderr).

${CONNECTION_HELP}
  --index NAME              Read this index instead of the table.
  --full                    Scan every item (paced by the read limit) instead of sampling.
  --sample N                Items the sample aims at (default 1000); --segments is then the
                            number of segments it reads (default 40).
  --entity NAME             Only this entity (as SQL names it: orders, users, …).
  --type-attribute A        Group entities by attribute A's value instead of key prefixes.
  --resume ID               Go on with the read Ctrl+C stopped (give the same --table, --index,
                            --full and connection flags).
  --format F                json (default) or md: the report; ts, zod or json-schema: a model of
                            the items (of --entity, or of the whole table) as unmarshall() gives them;
                            orm: dynotable-orm models, one per entity (keys, key templates, indexes,
                            Date attributes and their observed storage).`;

const FORMATS = ['json', 'md', 'ts', 'zod', 'json-schema', 'orm'];

export async function run(argv: string[]): Promise<number> {
  const { values } = parseFlags(argv, {
    ...connectionOptions,
    index: { type: 'string' },
    full: { type: 'boolean', default: false },
    sample: { type: 'string' },
    entity: { type: 'string' },
    'type-attribute': { type: 'string' },
    resume: { type: 'string' },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const table = requireTable(values);
  const format = values.format ?? 'json';
  if (!FORMATS.includes(format))
    throw new UsageError(`--format wants one of ${FORMATS.join(', ')}, not "${format}".`);
  if (values.full && values.sample !== undefined)
    throw new UsageError('Choose --full or --sample N, not both.');
  const sampleSize = positiveNumber(values.sample, '--sample', 100_000);
  if (sampleSize !== undefined && (!Number.isInteger(sampleSize) || sampleSize < 10))
    throw new UsageError(`--sample wants a whole number from 10 to 100000, not "${values.sample}".`);
  const typeAttribute = values['type-attribute'];
  const resume = resumeIdOf(values.resume);
  return runMigrationCommand('schema', values, async (run) => {
    // The app's schema service: a job in the one job store, listed in a saved connection's Schema view.
    const scanId = await runResumableJob('schema', run, {
      table,
      resume,
      start: async (base) => {
        const input = {
          ...base,
          ...(values.index !== undefined ? { index: values.index } : {}),
          mode: values.full ? ('full' as const) : ('sample' as const),
          ...(sampleSize !== undefined ? { sampleSize } : {}),
          ...(typeAttribute ? { typeAttribute } : {}),
        };
        return (await startSchemaAnalysis(input, run.ctx)).scanId;
      },
    });
    if (scanId === undefined) return 2;
    const report = await loadSchemaReport(scanId, run.ctx);
    if (values.entity !== undefined && !report.entities.some((e) => e.name === values.entity))
      throw new AppFailure(
        ErrorCodes.notFound,
        `No entity named ${values.entity} was found; the read found ${report.entities.map((e) => e.name).join(', ') || 'none'}.`,
      );
    const text =
      format === 'md'
        ? pipelineMarkdown(report, values.entity)
        : format === 'json'
          ? `${JSON.stringify(pipelineJson(report, values.entity), null, 2)}\n`
          : format === 'orm'
            ? generateOrmModel(report, values.entity, `dynotable schema of ${table}`)
            : generateModel(
                scopeOf(report, values.entity),
                format as ModelFormat,
                `dynotable schema of ${table}`,
              );
    await emit(text, values.out);
    if (!values.quiet) process.stderr.write(`${report.draw.description}\n`);
    return 0;
  });
}
