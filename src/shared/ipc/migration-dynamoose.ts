import { z } from 'zod';

/**
 * A dynamoose schema file as the pre-flight read it (as text, never run): its models, the
 * settings that change what the stored data means, and how the data conforms to what it declares.
 */

export interface DynamooseAttribute {
  name: string;
  /** Dotted from the top: `address.city`. */
  path: string;
  /** String, Number, Boolean, Date, Object, Array, Set, Buffer, Combine, Constant, Any, or Unknown. */
  type: string;
  required: boolean;
  key?: 'hash' | 'range';
  /** `alias`/`aliases`/`map`: other names the attribute is known by. */
  aliases: string[];
  hasGet: boolean;
  hasSet: boolean;
  dateStorage?: 'iso' | 'millis' | 'seconds';
  combine?: { attributes: string[]; separator: string };
  constant?: string;
  /** The element type of an Array or Set (`[String]` → String). */
  element?: string;
  /** Written `[String]`: a set under 0.x/1.x, a list from 2.x on. */
  arrayShorthand?: boolean;
  children?: DynamooseAttribute[];
}

export const dynamooseAttributeSchema: z.ZodType<DynamooseAttribute> = z.lazy(() =>
  z.object({
    name: z.string(),
    path: z.string(),
    type: z.string(),
    required: z.boolean(),
    key: z.enum(['hash', 'range']).optional(),
    aliases: z.array(z.string()),
    hasGet: z.boolean(),
    hasSet: z.boolean(),
    dateStorage: z.enum(['iso', 'millis', 'seconds']).optional(),
    combine: z.object({ attributes: z.array(z.string()), separator: z.string() }).optional(),
    constant: z.string().optional(),
    element: z.string().optional(),
    arrayShorthand: z.boolean().optional(),
    children: z.array(dynamooseAttributeSchema).optional(),
  }),
);

const dateStorageWord = z.enum(['iso', 'millis', 'seconds']);

export const dynamooseSettingsSchema = z.object({
  timestamps: z
    .object({
      createdAt: z.string().optional(),
      updatedAt: z.string().optional(),
      /** v3+'s `{createdAt: {name: {type: {value: Date, settings: {storage}}}}}`; epoch ms when absent. */
      createdAtStorage: dateStorageWord.optional(),
      updatedAtStorage: dateStorageWord.optional(),
    })
    .optional(),
  saveUnknown: z.union([z.boolean(), z.array(z.string())]).optional(),
  useNativeBooleans: z.boolean().optional(),
  useDocumentTypes: z.boolean().optional(),
  expires: z
    .object({ attribute: z.string(), ttl: z.number().optional(), returnExpired: z.boolean().optional() })
    .optional(),
});
export type DynamooseSettings = z.infer<typeof dynamooseSettingsSchema>;

export const dynamooseModelSchema = z.object({
  name: z.string(),
  attributes: z.array(dynamooseAttributeSchema),
  settings: dynamooseSettingsSchema,
  /** Parts of the definition that are not literals (a spread, a variable): not guessed. */
  unread: z.array(z.string()),
});
export type DynamooseModel = z.infer<typeof dynamooseModelSchema>;

/** A setting of the old schema that changes what the stored data means, and what the new model must say. */
export const dynamooseNoteSchema = z.object({
  model: z.string(),
  path: z.string(),
  setting: z.string(),
  /** One sentence: what the old release did with it. */
  meaning: z.string(),
  /** One sentence: what the dynotable-orm model must say to read the same data. */
  ormSays: z.string(),
});
export type DynamooseNote = z.infer<typeof dynamooseNoteSchema>;

/** One declared top-level attribute against what the items the model wrote hold there. */
export const conformanceSchema = z.object({
  model: z.string(),
  path: z.string(),
  declared: z.string(),
  required: z.boolean(),
  /** Items taken as this model's (they hold the most of its declared names). */
  items: z.number().int(),
  present: z.number().int(),
  /** Stored DynamoDB types and how many items hold each. */
  stored: z.record(z.string(), z.number().int()),
  /** Items whose stored type the declaration does not accept. */
  mismatched: z.number().int(),
  sampleKeys: z.array(z.record(z.string(), z.union([z.string(), z.number()]))),
  /**
   * A declared Date: how the items store it (ISO strings, epoch ms, epoch s, anything else), to
   * hold against the declared storage. Absent for other types and in older reports.
   */
  dates: z
    .object({
      iso: z.number().int(),
      millis: z.number().int(),
      seconds: z.number().int(),
      other: z.number().int(),
    })
    .optional(),
  /** One sentence when something does not conform; absent when everything does. */
  problem: z.string().optional(),
});
export type Conformance = z.infer<typeof conformanceSchema>;

export const dynamooseReviewSchema = z.object({
  file: z.string(),
  models: z.array(dynamooseModelSchema),
  notes: z.array(dynamooseNoteSchema),
  conformance: z.array(conformanceSchema),
  /** Behaviours of the old ORM the new one does not have, one sentence each. */
  behaviours: z.array(z.string()),
  /**
   * The dynotable-orm model that reads what these models stored (stored names, timestamps, TTL
   * in seconds, each Date's storage, set or list, Combine as a note); absent in older reports.
   */
  ormModel: z.string().optional(),
});
export type DynamooseReview = z.infer<typeof dynamooseReviewSchema>;

/** A dynamoose schema file is a few KB; this bounds what main reads. */
export const DYNAMOOSE_FILE_MAX_CHARS = 1_000_000;

/**
 * The dynamoose schema file a table's pre-flight uses: what it says before any scan (the review
 * without conformance), and from then on every scan of the table checks the items against it as
 * `scan-migration --dynamoose-model FILE` does.
 */
export const dynamooseFileSchema = z.object({
  fileName: z.string(),
  /** When it was given. */
  at: z.string(),
  review: dynamooseReviewSchema,
});
export type KeptDynamooseFile = z.infer<typeof dynamooseFileSchema>;

export const dynamooseFileOutput = z.object({ dynamoose: dynamooseFileSchema.nullable() });
