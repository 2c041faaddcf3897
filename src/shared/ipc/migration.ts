import { z } from 'zod';
import { DYNAMOOSE_FILE_MAX_CHARS, dynamooseFileOutput, dynamooseReviewSchema } from './migration-dynamoose';
import { attributeValueSchema, itemSchema } from '../dynamo/attribute-value';
import { keptForUndoShape } from './journal';
import { requestIdSchema } from './operations';
import { keySchemaSchema, tableRefInput } from './tables';

/**
 * The migration pre-flight (issue 5): what a table holds that breaks a move off dynamoose —
 * top-level attributes literally named `a.b`, and Dates stored as ISO strings next to epochs.
 */

/** An item key in plain JSON (S → string, N → number when exact else string, B → base64). */
export const plainKeySchema = z.record(z.string(), z.union([z.string(), z.number()]));
export type PlainKey = z.infer<typeof plainKeySchema>;

export const dottedAttributeSchema = z.object({
  name: z.string(),
  items: z.number().int(),
  /** Items where the nested path holds no value (parent map missing, not a map, or key missing). */
  parentMissing: z.number().int(),
  sameAsNested: z.number().int(),
  differsFromNested: z.number().int(),
  /** Of parentMissing: the parent map itself is absent (the fix creates it). */
  missingParentMap: z.number().int(),
  /** Of parentMissing: a parent exists but is not a map, so no fix can create the path. */
  parentNotMap: z.number().int(),
  sampleKeys: z.array(plainKeySchema),
});
export type DottedAttributeFinding = z.infer<typeof dottedAttributeSchema>;

export const dateAttributeSchema = z.object({
  /** Map steps with dots, list steps as [n]; names with . [ ] or " are written as ["name"]. */
  path: z.string(),
  iso: z.number().int(),
  /** Of iso: date-only strings (YYYY-MM-DD). */
  isoDateOnly: z.number().int(),
  epochMillis: z.number().int(),
  epochSeconds: z.number().int(),
  mixed: z.boolean(),
  /** Of the values counted, members of string or number sets at this path (absent when none). */
  setMembers: z.number().int().optional(),
  /** A key attribute of the table: its type cannot change in place. */
  isKey: z.boolean(),
  /** A key attribute of these indexes: the index fixes its type. */
  indexKeyOf: z.array(z.string()),
  /** The name says it is a time (createdAt, …Date, timestamp, …). */
  timeNamed: z.boolean(),
  /** ISO samples first, then epoch ms, then epoch s (each bounded). */
  sampleKeys: z.array(plainKeySchema),
  sampleKeysByKind: z.object({
    iso: z.array(plainKeySchema),
    epochMillis: z.array(plainKeySchema),
    epochSeconds: z.array(plainKeySchema),
  }),
});
export type DateAttributeFinding = z.infer<typeof dateAttributeSchema>;

/**
 * What dynamoose-era data holds that the new ORM misreads (issue 29), besides the dotted names
 * and Date storage above: one finding per kind, path and entity.
 */
export const findingKindSchema = z.enum([
  'booleanAsString',
  'documentAsString',
  'setListMix',
  'ttlMilliseconds',
  'ttlNotNumber',
  'ttlMissing',
  'ttlExpiredPresent',
  'dateLostToEmptyMap',
  'upsertResidue',
  'mapTruncated',
  'dottedKeyInMap',
  'keyAttributeDate',
  'staleCombine',
]);
export type FindingKind = z.infer<typeof findingKindSchema>;

export const migrationFindingSchema = z.object({
  kind: findingKindSchema,
  /** As the report writes paths (see dateAttributeSchema.path). */
  path: z.string(),
  /** The entity (the key prefix, as the Schema view names it); null for items whose keys name none. */
  entity: z.string().nullable(),
  items: z.number().int(),
  sampleKeys: z.array(plainKeySchema),
  /** One sentence: why it matters and what the new ORM would do with it. */
  detail: z.string(),
  /** One sentence: the fix, or the decision it needs. */
  fix: z.string(),
  /** Needs a data change (or a decision) rather than a model setting. */
  isDataFix: z.boolean(),
});
export type MigrationFinding = z.infer<typeof migrationFindingSchema>;

/** A finding the team says it has dealt with: `--expect kind:path`; every entity at that path. */
export const findingAcknowledgementSchema = z.object({
  kind: findingKindSchema,
  path: z.string().min(1).max(4096),
});
export type FindingAcknowledgement = z.infer<typeof findingAcknowledgementSchema>;

/** How a model stores Dates at a path: the new ORM's defaultDateStorage (epoch ms is its default). */
export const dateStorageSchema = z.enum(['iso', 'seconds', 'millis']);
export type DateStorage = z.infer<typeof dateStorageSchema>;

/** How a path that holds one kind of Date stores it; undefined while it mixes kinds. */
export function dateStorageOf(d: DateAttributeFinding): DateStorage | undefined {
  if (d.mixed) return undefined;
  if (d.iso > 0) return 'iso';
  return d.epochSeconds > 0 ? 'seconds' : 'millis';
}

/** A model setting the data calls for, or one the team says its models have (an acknowledgement). */
export const dateSettingSchema = z.object({
  path: z.string().min(1).max(4096),
  storage: dateStorageSchema,
});
export type DateSetting = z.infer<typeof dateSettingSchema>;

/**
 * A model setting the team says its models have: who said so, when and why. The app records all
 * three; a hand-written expectations file may give only path and storage.
 */
export const acknowledgementSchema = dateSettingSchema.extend({
  by: z.string().max(200).optional(),
  at: z.string().max(40).optional(),
  reason: z.string().max(2000).optional(),
});
export type Acknowledgement = z.infer<typeof acknowledgementSchema>;

/**
 * The one format for acknowledgements: the file `scan-migration --expectations` reads, and the
 * file the app keeps per connection and table. An array rather than an object keyed by path:
 * paths are data (`__proto__` is a legal name).
 */
export const expectationsFileSchema = z.strictObject({
  /** When present, the file is refused for any other table: a copied file must not pass a gate. */
  table: z.string().min(1).optional(),
  dateStorage: z.array(acknowledgementSchema).max(10_000),
  /** Findings acknowledged by kind and path (absent in files written before they existed). */
  findings: z.array(findingAcknowledgementSchema).max(10_000).optional(),
});
export type ExpectationsFile = z.infer<typeof expectationsFileSchema>;

export const acknowledgementsOutput = z.object({
  acknowledgements: z.array(acknowledgementSchema),
  /** Where they are kept: an expectations file `scan-migration --expectations` reads as it is. */
  file: z.string(),
  /** The same as an expectations file's text, to keep next to the models. */
  content: z.string(),
});

/** A dynotable-orm model file (the Schema view's "orm" format) is a few KB; this bounds what main reads. */
export const ORM_MODEL_MAX_CHARS = 1_000_000;

/** One `model(...)` of a dynotable-orm model file, as the pre-flight reads it. */
export const ormModelEntitySchema = z.object({
  name: z.string(),
  /** The model's defaultDateStorage; epoch ms (the ORM's default) when it says none. */
  dateStorage: dateStorageSchema,
  /** False when the model sets no defaultDateStorage and the ORM's default applies. */
  isStorageSaid: z.boolean(),
  /** Top-level attribute names, as written in the model. */
  attributes: z.array(z.string()),
  /** Its z.date() attributes, as paths the report writes. */
  dates: z.array(z.string()),
  /** Of dates, those whose field says its own storage (`dateStorage(z.date(), 'epochSeconds')`). */
  dateOverrides: z.array(dateSettingSchema).optional(),
});
export type OrmModelEntity = z.infer<typeof ormModelEntitySchema>;

/**
 * The model file a table's pre-flight uses: every report's verdict counts its date storage as
 * `scan-migration --model FILE` does, under the acknowledgements (which win, as --expectations
 * wins over --model).
 */
export const ormModelSchema = z.object({
  fileName: z.string(),
  /** When it was given. */
  at: z.string(),
  entities: z.array(ormModelEntitySchema),
  /** What the verdict counts: each z.date() attribute with its model's storage. */
  dateStorage: z.array(dateSettingSchema),
});
export type OrmModel = z.infer<typeof ormModelSchema>;

export const ormModelOutput = z.object({ model: ormModelSchema.nullable() });

export const useOrmModelInput = tableRefInput.extend({
  source: z.union([
    /** The file the user chose in the open dialog (files:choose {purpose: 'model'}, desktop). */
    z.object({ fileId: z.string().min(1).max(64) }),
    /** The file's text, read by the page (browser mode: the page picked it; no path is sent). */
    z.object({
      name: z.string().trim().min(1).max(255),
      text: z.string().max(ORM_MODEL_MAX_CHARS, 'A dynotable-orm model file is at most 1 MB.'),
    }),
  ]),
});

export const useDynamooseFileInput = tableRefInput.extend({
  source: z.union([
    /** The file the user chose in the open dialog (files:choose {purpose: 'dynamoose'}, desktop). */
    z.object({ fileId: z.string().min(1).max(64) }),
    /** The file's text, read by the page (browser mode: no path is sent). */
    z.object({
      name: z.string().trim().min(1).max(255),
      text: z.string().max(DYNAMOOSE_FILE_MAX_CHARS, 'A dynamoose schema file is at most 1 MB.'),
    }),
  ]),
});

export const verdictSchema = z.object({
  /** Data must change before the new ORM writes to this table. */
  needsFix: z.boolean(),
  line: z.string(),
  mustFix: z.array(z.string()),
  /** Needs only a model setting (for example storing Dates as ISO); acknowledged ones are not listed. */
  settings: z.array(z.string()),
  /** Every model setting the data calls for, acknowledged or not (absent in older reports). */
  requiredSettings: z.array(dateSettingSchema).optional(),
  /** Of requiredSettings, those the team acknowledged as made in its models. */
  acknowledged: z.array(dateSettingSchema).optional(),
  /** Findings acknowledged by kind and path (absent in older reports). */
  acknowledgedFindings: z.array(findingAcknowledgementSchema).optional(),
  /**
   * Anything left to do: a data fix, a setting not acknowledged, or an acknowledgement the data
   * contradicts. What a CI gate fails on (absent in older reports: read needsFix).
   */
  actionNeeded: z.boolean().optional(),
});
export type Verdict = z.infer<typeof verdictSchema>;

export const migrationReportSchema = z.object({
  scanId: z.string(),
  table: z.string(),
  keys: keySchemaSchema,
  startedAt: z.string(),
  finishedAt: z.string(),
  /** False when the scan was cancelled or failed: the numbers cover only part of the table. */
  complete: z.boolean(),
  segments: z.number().int(),
  itemsScanned: z.number().int(),
  /** The table's approximate item count when the scan started. */
  tableItemCount: z.number(),
  consumedReadCapacity: z.number(),
  /** Scan requests DynamoDB throttled (each slowed the scan and was retried); absent in older reports. */
  throttledRequests: z.number().int().optional(),
  dottedAttributes: z.array(dottedAttributeSchema),
  dateAttributes: z.array(dateAttributeSchema),
  /** What dynamoose-era releases left that the new ORM misreads (absent in older reports). */
  findings: z.array(migrationFindingSchema).optional(),
  /** The table's TTL attribute as DescribeTimeToLive named it, when TTL is on (absent when off or older). */
  ttlAttribute: z.string().optional(),
  /** Distinct date-like paths not tracked once the bound was reached. */
  untrackedPaths: z.number().int(),
  verdict: verdictSchema,
  /** With a dynamoose schema file: its settings, conformance and changed behaviours. */
  dynamoose: dynamooseReviewSchema.optional(),
});
export type MigrationReport = z.infer<typeof migrationReportSchema>;

/** Items per second, read capacity units per second, or a share of the provisioned read capacity. */
export const readLimitSchema = z
  .object({
    itemsPerSecond: z.number().positive().max(1_000_000).optional(),
    readCapacityPerSecond: z.number().positive().max(1_000_000).optional(),
    shareOfProvisioned: z.number().positive().max(1).optional(),
  })
  .refine(
    (l) =>
      [l.itemsPerSecond, l.readCapacityPerSecond, l.shareOfProvisioned].filter((v) => v !== undefined)
        .length <= 1,
    {
      error: 'choose one kind of read limit',
    },
  );
export type ReadLimit = z.infer<typeof readLimitSchema>;

export const migrationScanInput = tableRefInput.extend({
  requestId: requestIdSchema,
  segments: z.number().int().min(1).max(64).optional(),
  limit: readLimitSchema.optional(),
  /** Continue a cancelled or failed scan from its checkpoint. */
  resumeScanId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{6,80}$/)
    .optional(),
});

export const scanSummarySchema = z.object({
  scanId: z.string(),
  connectionId: z.string(),
  table: z.string(),
  state: z.enum(['running', 'done', 'cancelled', 'failed']),
  /** The operation of the current (or last) run: a reloaded window re-attaches to its events. */
  requestId: z.string().optional(),
  startedAt: z.string(),
  updatedAt: z.string(),
  segments: z.number().int(),
  itemsScanned: z.number().int(),
  tableItemCount: z.number(),
  consumedReadCapacity: z.number(),
  needsFix: z.boolean().optional(),
  verdictLine: z.string().optional(),
  error: z.string().optional(),
});
export type ScanSummary = z.infer<typeof scanSummarySchema>;

export const exportFormatSchema = z.enum(['json', 'csv', 'md']);
export type ExportFormat = z.infer<typeof exportFormatSchema>;

export const fixPolicySchema = z.enum(['shadow-wins', 'nested-wins', 'review']);
export type FixPolicy = z.infer<typeof fixPolicySchema>;

export const fixPlanInput = tableRefInput.extend({
  requestId: requestIdSchema,
  policy: fixPolicySchema,
  convertDates: z.boolean().optional(),
  /** Restrict the date conversion to these paths (as the report writes them). */
  datePaths: z.array(z.string().max(1024)).max(1000).optional(),
  /**
   * Only rewrite the TTL attribute's epoch-millisecond values as epoch seconds (the Health tab's
   * fix): no dotted names moved, no dates converted, every other attribute left as it is.
   */
  ttlOnly: z.boolean().optional(),
  /** Paths whose "true"/"false" strings become BOOL (booleanAsString; `fix-migration --bool-path`). */
  booleanPaths: z.array(z.string().min(1).max(1024)).max(1000).optional(),
  /** Paths whose JSON text becomes the map or list it spells (documentAsString; `--document-path`). */
  documentPaths: z.array(z.string().min(1).max(1024)).max(1000).optional(),
  /** The TTL attribute's epoch-ms values as epoch seconds (ttlMilliseconds; `--ttl-seconds`). */
  ttlToSeconds: z.boolean().optional(),
  /** Paths whose string and number sets become lists (setListMix; `--set-to-list`). */
  setToListPaths: z.array(z.string().min(1).max(1024)).max(1000).optional(),
  /** Paths whose lists of strings or of numbers become sets (setListMix; `--list-to-set`). */
  listToSetPaths: z.array(z.string().min(1).max(1024)).max(1000).optional(),
  segments: z.number().int().min(1).max(64).optional(),
  limit: readLimitSchema.optional(),
});

/** One UpdateItem as it will be sent, in tagged form. */
export const plannedUpdateSchema = z.object({
  Key: itemSchema,
  UpdateExpression: z.string(),
  ConditionExpression: z.string(),
  ExpressionAttributeNames: z.record(z.string(), z.string()),
  ExpressionAttributeValues: itemSchema.optional(),
});
export type PlannedUpdate = z.infer<typeof plannedUpdateSchema>;

/** One value the fix rewrites, as the scan saw it and as it will be written (tagged form). */
export const plannedChangeSchema = z.object({
  key: plainKeySchema,
  path: z.string(),
  before: attributeValueSchema,
  after: attributeValueSchema,
});
export type PlannedChange = z.infer<typeof plannedChangeSchema>;

export const reviewEntrySchema = z.object({ key: plainKeySchema, attribute: z.string(), reason: z.string() });
export type ReviewEntry = z.infer<typeof reviewEntrySchema>;

export const fixPlanSummarySchema = z.object({
  planId: z.string(),
  connectionId: z.string(),
  table: z.string(),
  policy: fixPolicySchema,
  convertDates: z.boolean(),
  createdAt: z.string(),
  itemsScanned: z.number().int(),
  /** UpdateItem requests the run will send (one per item). */
  updates: z.number().int(),
  moves: z.number().int(),
  removals: z.number().int(),
  dateConversions: z.number().int(),
  /** Booleans and TTL values rewritten (absent in plans made before they could be). */
  rewrites: z.number().int().optional(),
  review: z.number().int(),
  /** Values rewritten per path, as the report writes paths (absent in older plans). */
  rewritesByPath: z.array(z.object({ path: z.string(), values: z.number().int() })).optional(),
  /** A few rewrites with the value before and after (absent in older plans). */
  sampleChanges: z.array(plannedChangeSchema).optional(),
  sampleRequests: z.array(plannedUpdateSchema),
  reviewSamples: z.array(reviewEntrySchema),
  readOnly: z.boolean(),
  /** Planned by the Health tab's TTL fix (`ttlOnly`): its run is journaled under the source "health". */
  ttlOnly: z.boolean().optional(),
});
export type FixPlanSummary = z.infer<typeof fixPlanSummarySchema>;

export const fixResultSchema = z.object({
  planId: z.string(),
  state: z.enum(['running', 'done', 'cancelled', 'failed']),
  total: z.number().int(),
  written: z.number().int(),
  skippedChanged: z.number().int(),
  failed: z.number().int(),
  consumedWriteCapacity: z.number(),
  /** Writes DynamoDB throttled (retried slower); absent in results saved before they were counted. */
  throttledRequests: z.number().int().optional(),
  changedSamples: z.array(plainKeySchema),
  failures: z.array(z.object({ key: plainKeySchema, code: z.string(), message: z.string() })),
  /** The undo journal entry of this run's writes (the app only). */
  ...keptForUndoShape,
});
export type FixResult = z.infer<typeof fixResultSchema>;

export const fixRunInput = z.object({
  connectionId: z.string(),
  requestId: requestIdSchema,
  planId: z.string().regex(/^[A-Za-z0-9_-]{6,80}$/),
  /** Write capacity units per second (default 50). */
  writesPerSecond: z.number().positive().max(100_000).optional(),
});

const scanIdSchema = z.string().regex(/^[A-Za-z0-9_-]{6,80}$/, 'a scan id');

/** The migration channels; spread into the contract. Long work runs as operations (events). */
export const migrationChannels = {
  /** Starts (or resumes) a pre-flight scan as an operation. */
  'migration:scan': {
    input: migrationScanInput,
    output: z.object({ scanId: z.string() }),
    done: z.object({ scanId: z.string(), needsFix: z.boolean(), verdictLine: z.string() }),
  },
  'migration:scans': {
    input: z.object({ connectionId: z.string(), table: z.string().optional() }),
    output: z.array(scanSummarySchema),
  },
  /** The report of a finished scan, or the partial report of a cancelled or failed one. */
  'migration:report': { input: z.object({ scanId: scanIdSchema }), output: migrationReportSchema },
  'migration:export': {
    input: z.object({ scanId: scanIdSchema, format: exportFormatSchema }),
    output: z.object({ fileName: z.string(), mimeType: z.string(), content: z.string() }),
  },
  /** The dry run: scans again and plans every write. */
  'migration:fixPlan': {
    input: fixPlanInput,
    output: z.object({ planId: z.string() }),
    done: fixPlanSummarySchema,
  },
  /** Runs (or resumes) a plan; refused on read-only connections. */
  'migration:fixRun': { input: fixRunInput, output: z.object({ planId: z.string() }), done: fixResultSchema },
  'migration:fixStatus': {
    input: z.object({ planId: scanIdSchema }),
    output: z.object({ plan: fixPlanSummarySchema, result: fixResultSchema.nullable() }),
  },
  /** The model settings acknowledged for a table on this connection; reports' verdicts count them. */
  'migration:acknowledgements': { input: tableRefInput, output: acknowledgementsOutput },
  /** Acknowledges (or re-acknowledges) one setting; main records who and when, the user says why. */
  'migration:acknowledge': {
    input: tableRefInput.extend({
      path: dateSettingSchema.shape.path,
      storage: dateStorageSchema,
      reason: z.string().trim().min(1, 'Say why the setting is acknowledged.').max(2000),
    }),
    output: acknowledgementsOutput,
  },
  /** The dynotable-orm model file the table's pre-flight uses, or null. */
  'migration:model': { input: tableRefInput, output: ormModelOutput },
  /** Reads a dynotable-orm model file (chosen, or its text) and uses it for the table's verdicts. */
  'migration:useModel': { input: useOrmModelInput, output: ormModelOutput },
  /** Stops using the table's model file; reports count only the acknowledgements again. */
  'migration:removeModel': { input: tableRefInput, output: ormModelOutput },
  'migration:withdrawAcknowledgement': {
    input: tableRefInput.extend({ path: dateSettingSchema.shape.path }),
    output: acknowledgementsOutput,
  },
  /** The dynamoose schema file the table's scans check the items against, or null. */
  'migration:dynamoose': { input: tableRefInput, output: dynamooseFileOutput },
  /** Reads a dynamoose schema file (chosen, or its text; never run) for the table's next scans. */
  'migration:useDynamoose': { input: useDynamooseFileInput, output: dynamooseFileOutput },
  /** Stops using the table's dynamoose schema file; scans from then on do without it. */
  'migration:removeDynamoose': { input: tableRefInput, output: dynamooseFileOutput },
} as const;
