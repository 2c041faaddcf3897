import type { ParseArgsConfig } from 'node:util';
import type { ReadLimit } from '../../shared/ipc/migration';
import { UsageError } from './types';

/** Flags shared by scan-migration and fix-migration: where the table is and how fast to read. */
export const connectionOptions = {
  table: { type: 'string' },
  connection: { type: 'string' },
  profile: { type: 'string' },
  region: { type: 'string' },
  endpoint: { type: 'string' },
  segments: { type: 'string' },
  'items-per-second': { type: 'string' },
  'read-capacity': { type: 'string' },
  'share-of-provisioned': { type: 'string' },
  out: { type: 'string' },
  format: { type: 'string' },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options'];

export const CONNECTION_HELP = `  --table T                 The table (required).
  --connection NAME         A connection saved in DynoTable (its name or id) instead of the three below;
                            its read-only setting holds.
  --profile P               AWS profile (SSO, assume-role, credential_process; an MFA code is asked on the terminal); default: the default chain.
  --region R                Region; default: $AWS_REGION or the profile's.
  --endpoint URL            Endpoint override (DynamoDB Local, LocalStack).
  --segments N              Parallel Scan segments, 1–64 (default 4).
  --items-per-second N      Read at most N items per second, or
  --read-capacity N         at most N read capacity units per second, or
  --share-of-provisioned F  at most this share (0–1) of the table's provisioned read capacity.
  --out FILE                Write the output to FILE instead of stdout.
  --quiet                   No progress on stderr.`;

export function positiveNumber(
  text: string | undefined,
  flag: string,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || n > max)
    throw new UsageError(`${flag} wants a positive number up to ${max}, not "${text}".`);
  return n;
}

export function segmentsOf(text: string | undefined): number | undefined {
  const n = positiveNumber(text, '--segments', 64);
  if (n !== undefined && !Number.isInteger(n))
    throw new UsageError(`--segments wants a whole number, not "${text}".`);
  return n;
}

export function readLimitOf(values: Record<string, unknown>): ReadLimit | undefined {
  const limit: ReadLimit = {
    itemsPerSecond: positiveNumber(values['items-per-second'] as string | undefined, '--items-per-second'),
    readCapacityPerSecond: positiveNumber(values['read-capacity'] as string | undefined, '--read-capacity'),
    shareOfProvisioned: positiveNumber(
      values['share-of-provisioned'] as string | undefined,
      '--share-of-provisioned',
      1,
    ),
  };
  const set = Object.entries(limit).filter(([, v]) => typeof v === 'number');
  if (set.length > 1)
    throw new UsageError('Choose one of --items-per-second, --read-capacity and --share-of-provisioned.');
  return set.length === 0 ? undefined : Object.fromEntries(set);
}

export function requireTable(values: Record<string, unknown>): string {
  const table = values.table;
  if (typeof table !== 'string' || table.length < 3)
    throw new UsageError('--table T is required (the table name).');
  return table;
}

const JOB_ID = /^[A-Za-z0-9_-]{6,80}$/;

/** The id `--resume` names: what a stopped run printed (scan-…, schema-…), checked before any path is built. */
export function resumeIdOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (!JOB_ID.test(text)) throw new UsageError(`--resume wants the ID a stopped run printed, not "${text}".`);
  return text;
}
