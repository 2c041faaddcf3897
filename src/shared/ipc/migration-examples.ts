import type { ChannelExample } from './examples';
import type { FixPlanSummary, MigrationReport, migrationChannels } from './migration';

type MigrationExamples = { [C in keyof typeof migrationChannels]: ChannelExample<C> };

const acknowledged = {
  path: 'createdAt',
  storage: 'iso' as const,
  by: 'maria',
  at: '2026-11-06T09:10:00.000Z',
  reason: "OrderModel sets defaultDateStorage: 'iso' since v4.2.",
};
const acknowledgementsExample = {
  acknowledgements: [acknowledged],
  file: '/home/maria/.config/DynoTable/migration/acknowledgements/conn_prod/Orders.expectations.json',
  content: `${JSON.stringify({ table: 'Orders', dateStorage: [acknowledged] }, null, 2)}\n`,
};

const ormModelExample = {
  fileName: 'Orders.model.ts',
  at: '2026-11-06T09:12:00.000Z',
  entities: [
    {
      name: 'Order',
      dateStorage: 'iso' as const,
      isStorageSaid: true,
      attributes: ['pk', 'sk', 'createdAt', 'status', 'total'],
      dates: ['createdAt'],
    },
  ],
  dateStorage: [{ path: 'createdAt', storage: 'iso' as const }],
};

const orderModel = {
  name: 'Order',
  attributes: [
    {
      name: 'pk',
      path: 'pk',
      type: 'String',
      required: false,
      key: 'hash' as const,
      aliases: [],
      hasGet: false,
      hasSet: false,
    },
    {
      name: 'last',
      path: 'last',
      type: 'String',
      required: true,
      aliases: ['surname'],
      hasGet: false,
      hasSet: false,
    },
  ],
  settings: { timestamps: { createdAt: 'createdAt', updatedAt: 'updatedAt' } },
  unread: [],
};
const dynamooseFileExample = {
  fileName: 'models.js',
  at: '2026-11-06T09:14:00.000Z',
  review: {
    file: 'models.js',
    models: [orderModel],
    notes: [
      {
        model: 'Order',
        path: 'last',
        setting: 'alias/map',
        meaning: 'The code knows this attribute as "surname" while DynamoDB stores it as "last".',
        ormSays:
          'Declare the field under the stored name "last"; the code\'s other names are not in the table.',
      },
    ],
    conformance: [],
    behaviours: [
      "item.save() is gone: dynamoose's save() wrote the whole item over whatever was stored; use create() (which, like dynamoose's, refuses a key that exists) or update().",
    ],
    ormModel:
      "import {model} from 'dynotable-orm';\n…\nexport const Order = model(\n  'Order',\n  z.object({\n    pk: hashKey(z.string()),\n    last: z.string(), // dynamoose alias surname: the table stores it as \"last\"\n    createdAt: z.date().optional(), // dynamoose timestamps: createdAt\n    updatedAt: z.date().optional(), // dynamoose timestamps: updatedAt\n  }),\n  {timestamps: {createdAt: 'createdAt', updatedAt: 'updatedAt'}}\n);\n",
  },
};

const report: MigrationReport = {
  scanId: 'scan-m1x2y3-1a2b3c4d',
  table: 'Orders',
  keys: { partitionKey: { name: 'pk', type: 'S' }, sortKey: { name: 'sk', type: 'N' } },
  startedAt: '2026-11-06T09:00:00.000Z',
  finishedAt: '2026-11-06T09:04:12.000Z',
  complete: true,
  segments: 4,
  itemsScanned: 120_345,
  tableItemCount: 120_000,
  consumedReadCapacity: 3_761.5,
  dottedAttributes: [
    {
      name: 'address.city',
      items: 412,
      parentMissing: 37,
      sameAsNested: 301,
      differsFromNested: 74,
      missingParentMap: 37,
      parentNotMap: 0,
      sampleKeys: [{ pk: 'order#000120', sk: 1 }],
    },
  ],
  dateAttributes: [
    {
      path: 'createdAt',
      iso: 80_211,
      isoDateOnly: 0,
      epochMillis: 40_134,
      epochSeconds: 0,
      mixed: true,
      isKey: false,
      indexKeyOf: [],
      timeNamed: true,
      sampleKeys: [
        { pk: 'order#000001', sk: 1 },
        { pk: 'order#000002', sk: 1 },
      ],
      sampleKeysByKind: {
        iso: [{ pk: 'order#000001', sk: 1 }],
        epochMillis: [{ pk: 'order#000002', sk: 1 }],
        epochSeconds: [],
      },
    },
  ],
  untrackedPaths: 0,
  verdict: {
    needsFix: true,
    line: 'Fix before the new ORM writes: move top-level "address.city" into the nested path on 412 items (74 differ from the nested value, 37 have no nested value, 301 repeat it); make createdAt one type (80,211 ISO strings, 40,134 epoch ms).',
    mustFix: [
      'move top-level "address.city" into the nested path on 412 items (74 differ from the nested value, 37 have no nested value, 301 repeat it)',
      'make createdAt one type (80,211 ISO strings, 40,134 epoch ms)',
    ],
    settings: [],
  },
};

const plan: FixPlanSummary = {
  planId: 'plan-m1x2z9-9f8e7d6c',
  connectionId: 'conn_prod',
  table: 'Orders',
  policy: 'review',
  convertDates: false,
  createdAt: '2026-11-06T09:10:00.000Z',
  itemsScanned: 120_345,
  updates: 338,
  moves: 37,
  removals: 301,
  dateConversions: 0,
  review: 74,
  sampleRequests: [
    {
      Key: { pk: { S: 'order#000120' }, sk: { N: '1' } },
      UpdateExpression: 'SET #n1 = :v1 REMOVE #n0',
      ConditionExpression: '#n0 = :v0 AND attribute_not_exists(#n1)',
      ExpressionAttributeNames: { '#n0': 'address.city', '#n1': 'address' },
      ExpressionAttributeValues: { ':v0': { S: 'Valencia' }, ':v1': { M: { city: { S: 'Valencia' } } } },
    },
  ],
  reviewSamples: [
    {
      key: { pk: 'order#000124', sk: 1 },
      attribute: 'address.city',
      reason: 'the shadow and nested values differ',
    },
  ],
  readOnly: false,
};

export const migrationExamples: MigrationExamples = {
  'migration:scan': {
    summary:
      'Starts a migration pre-flight scan of a whole table (segmented, paced by the read limit) as an operation.',
    input: {
      connectionId: 'conn_prod',
      table: 'Orders',
      requestId: 'req_mig_0001',
      segments: 4,
      limit: { shareOfProvisioned: 0.25 },
    },
    output: { scanId: 'scan-m1x2y3-1a2b3c4d' },
    notes:
      'Progress events carry items, the fraction of the table, consumed RCU and the rate. Cancel with ops:cancel; the cancelled (or error) event carries the scanId as its cursor, and resumeScanId continues from the checkpoint (from the start when the scan stopped before its first one; a finished scan cannot be resumed).',
  },
  'migration:scans': {
    summary: 'Lists the pre-flight scans of a connection (newest first), optionally of one table.',
    input: { connectionId: 'conn_prod', table: 'Orders' },
    output: [
      {
        scanId: report.scanId,
        connectionId: 'conn_prod',
        table: 'Orders',
        state: 'done',
        startedAt: report.startedAt,
        updatedAt: report.finishedAt,
        segments: 4,
        itemsScanned: report.itemsScanned,
        tableItemCount: report.tableItemCount,
        consumedReadCapacity: report.consumedReadCapacity,
        needsFix: true,
        verdictLine: report.verdict.line,
      },
    ],
  },
  'migration:report': {
    summary:
      'The report of a scan: dotted attribute names, Date storage per path, and the verdict. Partial for a cancelled scan.',
    input: { scanId: report.scanId },
    output: report,
  },
  'migration:export': {
    summary: 'The report as a JSON, CSV or Markdown file.',
    input: { scanId: report.scanId, format: 'csv' },
    output: {
      fileName: 'migration-Orders-2026-11-06-09-04-12.csv',
      mimeType: 'text/csv',
      content:
        'finding,name,items,parentMissing,sameAsNested,differsFromNested,iso,epochMillis,epochSeconds,mixed,isKey,indexKeyOf,needsFix,sampleKeys\r\n',
    },
  },
  'migration:fixPlan': {
    summary:
      'The dry run of the fix: scans again and plans one conditional UpdateItem per item. Writes nothing.',
    input: {
      connectionId: 'conn_prod',
      table: 'Orders',
      requestId: 'req_mig_0002',
      policy: 'review',
      convertDates: false,
    },
    output: { planId: plan.planId },
    notes: 'The done event carries the plan summary (counts and sample requests as they will be sent).',
  },
  'migration:fixRun': {
    summary: 'Runs (or resumes) a dry-run plan, paced by write capacity. Refused on read-only connections.',
    input: { connectionId: 'conn_prod', requestId: 'req_mig_0003', planId: plan.planId, writesPerSecond: 25 },
    output: { planId: plan.planId },
    notes:
      'Each write is conditioned on the values the dry run saw; a changed item is skipped, never overwritten.',
  },
  'migration:fixStatus': {
    summary: 'A plan and, once it ran, its result: written, skipped because changed, failed.',
    input: { planId: plan.planId },
    output: {
      plan,
      result: {
        planId: plan.planId,
        state: 'done',
        total: 338,
        written: 336,
        skippedChanged: 2,
        failed: 0,
        consumedWriteCapacity: 340,
        changedSamples: [{ pk: 'order#004410', sk: 1 }],
        failures: [],
      },
    },
  },
  'migration:acknowledgements': {
    summary:
      'The model settings acknowledged for a table on this connection (who, when, why), and the expectations file they are kept in.',
    input: { connectionId: 'conn_prod', table: 'Orders' },
    output: acknowledgementsExample,
    notes:
      'Every report of the table counts them in its verdict. The file is what `dynotable scan-migration --expectations FILE` reads, so a CI gate can use it as it is.',
  },
  'migration:acknowledge': {
    summary:
      'Acknowledges that the models store Dates at a path as ISO strings, epoch seconds or epoch ms; main records who and when.',
    input: {
      connectionId: 'conn_prod',
      table: 'Orders',
      path: 'createdAt',
      storage: 'iso',
      reason: "OrderModel sets defaultDateStorage: 'iso' since v4.2.",
    },
    output: acknowledgementsExample,
    notes:
      'Acknowledging a path again replaces the earlier entry. An acknowledgement the data contradicts is an action again in the verdict.',
  },
  'migration:model': {
    summary:
      "The dynotable-orm model file the table's pre-flight uses (null when none): its models, attributes and each Date attribute's storage.",
    input: { connectionId: 'conn_prod', table: 'Orders' },
    output: { model: ormModelExample },
  },
  'migration:useModel': {
    summary:
      'Reads a dynotable-orm model file (the Schema view\'s "dynotable-orm model") and counts its date storage in every verdict of the table, as `scan-migration --model FILE` does.',
    input: { connectionId: 'conn_prod', table: 'Orders', source: { fileId: 'f_Zk3pQm9wXr2LtY8vN1cA' } },
    output: { model: ormModelExample },
    notes:
      'source is the handle files:choose {purpose: "model"} answered (desktop: main reads the file), or {name, text} with the text the page read (browser mode; at most 1 MB). A file that is not a model is refused with InvalidInput and nothing changes. Acknowledgements win over the model for the same path, as --expectations wins over --model. Replaces the table\'s earlier model file.',
  },
  'migration:removeModel': {
    summary: "Stops using the table's model file; verdicts count only the acknowledgements again.",
    input: { connectionId: 'conn_prod', table: 'Orders' },
    output: { model: null },
  },
  'migration:dynamoose': {
    summary:
      "The dynamoose schema file the table's scans check the items against (null when none): its models, the settings that change meaning, the behaviours that change and the generated dynotable-orm model.",
    input: { connectionId: 'conn_prod', table: 'Orders' },
    output: { dynamoose: dynamooseFileExample },
  },
  'migration:useDynamoose': {
    summary:
      'Reads a dynamoose schema file as text (never run) and checks every later scan of the table against it, as `scan-migration --dynamoose-model FILE` does.',
    input: {
      connectionId: 'conn_prod',
      table: 'Orders',
      source: { name: 'models.js', text: 'const s = new dynamoose.Schema({…});' },
    },
    output: { dynamoose: dynamooseFileExample },
    notes:
      'source is the handle files:choose {purpose: "dynamoose"} answered (desktop: main reads the file), or {name, text} with the text the page read (browser mode; at most 1 MB). A file with no Schema({...}) written out, or with TypeScript inside a definition, is refused with InvalidInput naming the line, and nothing changes. review.conformance is empty until a scan: the report of each scan started from then on has the review with conformance and staleCombine findings (report.dynamoose).',
  },
  'migration:removeDynamoose': {
    summary: "Stops using the table's dynamoose schema file; later scans do without it.",
    input: { connectionId: 'conn_prod', table: 'Orders' },
    output: { dynamoose: null },
  },
  'migration:withdrawAcknowledgement': {
    summary: 'Withdraws the acknowledgement of one path; reports count the setting as needed again.',
    input: { connectionId: 'conn_prod', table: 'Orders', path: 'createdAt' },
    output: {
      ...acknowledgementsExample,
      acknowledgements: [],
      content: '{\n  "table": "Orders",\n  "dateStorage": []\n}\n',
    },
  },
};
