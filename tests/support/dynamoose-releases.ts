import { createRequire } from 'node:module';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as dynamoose4 from 'dynamoose';
import { createTable } from './dynamo-tables';
import { rawDynamo } from './raw-dynamo';

/**
 * A table as it is after years of dynamoose: the real releases from the npm registry (0.8.7,
 * 1.11.1, 2.8.8 with aws-sdk v2 as they shipped, 4.2.0 with the AWS SDK v3) each writing the
 * entities it wrote in its day, into one DynamoDB Local table. Nothing here imitates a release:
 * every trap is what that release stored. Only what the releases were asked to do is known here;
 * what they stored is read back raw by the tests (./dynamoose-tally.ts).
 *
 * Entities (by partition key prefix): USER (0.8.x), POST (1.x then 2.x), ORDER (2.x),
 * SESSION (4.2.0, two services disagreeing on the TTL attribute's storage).
 */

// The old releases are CommonJS without types; each is driven through the little it needs.
const requireOld = createRequire(import.meta.url);
process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';

interface OldAwsSdk {
  DynamoDB: new (options: Record<string, unknown>) => unknown;
}
interface OldDocument {
  save(): Promise<unknown>;
}
interface OldModel {
  new (data: Record<string, unknown>): OldDocument;
  update(key: Record<string, unknown>, update: Record<string, unknown>): Promise<unknown>;
}
interface Dynamoose08 {
  AWS: OldAwsSdk;
  dynamoDB?: unknown;
  Schema: new (definition: Record<string, unknown>, options?: Record<string, unknown>) => unknown;
  model(name: string, schema: unknown, options?: Record<string, unknown>): OldModel;
}
type Dynamoose1 = Dynamoose08 & { setDDB(ddb: unknown): void };
interface Dynamoose2 {
  aws: { sdk: OldAwsSdk; ddb: { set(ddb: unknown): void } };
  Schema: new (definition: Record<string, unknown>, options?: Record<string, unknown>) => unknown;
  model(name: string, schema: unknown, options?: Record<string, unknown>): OldModel;
}

const CREDENTIALS = { region: 'us-east-1', accessKeyId: 'local', secretAccessKey: 'local' };
const NO_TABLE_MANAGEMENT = { create: false, waitForActive: false };

/** The table's keys as the old models declared them: a Date sort key (epoch ms) for POST. */
export const KEYS = { pk: 'pk', sk: 'timestamp', ttl: 'ttl' } as const;

export async function createReleasesTable(
  client: DynamoDBClient,
  endpoint: string,
  table: string,
): Promise<void> {
  await createTable(client, table, { partitionKey: [KEYS.pk, 'S'], sortKey: [KEYS.sk, 'N'] });
  await rawDynamo(endpoint, 'UpdateTimeToLive', {
    TableName: table,
    TimeToLiveSpecification: { AttributeName: KEYS.ttl, Enabled: true },
  });
}

/** What each release was asked to write, to name the items the tests expect findings on. */
export const PLAN = {
  /** 0.8.7 saves, the first `expiredUsers` with an expiry in the past. */
  users: 18,
  expiredUsers: 2,
  /** 0.8.7 Model.update() on keys never saved: upserts. */
  upsertedUsers: 2,
  /** 1.11.1 saves ([String] and [Number] as sets). */
  postsV1: 4,
  /** 2.8.8 saves of the same entity (plain arrays as lists). */
  postsV2: 3,
  /** 2.8.8 orders: saved whole, then `patchedOrders` partially updated, then `upsertedOrders` upserted. */
  orders: 20,
  patchedOrders: 2,
  upsertedOrders: 1,
  /** 4.2.0 sessions: `ttl` a Date in epoch ms (the default), and `isoSessions` as ISO strings. */
  msSessions: 3,
  isoSessions: 2,
} as const;

export const userKey = (i: number) => ({ pk: `USER#${i}`, timestamp: 0 });
export const postKey = (i: number) => ({ pk: `POST#${i}`, timestamp: Date.UTC(2019, 0, 1 + i) });
export const orderKey = (i: number) => ({ pk: `ORDER#${i}`, timestamp: 0 });
export const sessionKey = (i: number) => ({ pk: `SESSION#${i}`, timestamp: 0 });

/** dynamoose 0.8.7 (aws-sdk 2.x): booleans as "true"/"false", maps and lists as JSON text. */
export async function writeWith08(endpoint: string, table: string): Promise<void> {
  const dynamoose = requireOld('dynamoose-0.8') as Dynamoose08;
  // 0.8's local() keeps the SDK's global credentials; a client of its own keeps them local.
  dynamoose.dynamoDB = new dynamoose.AWS.DynamoDB({ endpoint, ...CREDENTIALS });
  const schema = new dynamoose.Schema(
    {
      pk: { type: String, hashKey: true },
      timestamp: { type: Number, rangeKey: true },
      name: String,
      active: Boolean,
      profile: Object,
      tags: Array,
    },
    { timestamps: true, expires: { ttl: 3600, attribute: KEYS.ttl } },
  );
  const User = dynamoose.model(table, schema, NO_TABLE_MANAGEMENT);
  for (let i = 0; i < PLAN.users; i++) {
    await new User({
      ...userKey(i),
      name: `user ${i}`,
      active: i % 2 === 0,
      profile: { city: 'Madrid', visits: i },
      tags: ['a', `t${i}`],
      ...(i < PLAN.expiredUsers ? { [KEYS.ttl]: new Date(Date.UTC(2020, 0, 1)) } : {}),
    }).save();
  }
  for (let i = PLAN.users; i < PLAN.users + PLAN.upsertedUsers; i++)
    await User.update(userKey(i), { $PUT: { active: true } });
}

/** dynamoose 1.11.1 (its own aws-sdk 2.395.0): [String]/[Number] as SS/NS, a Date sort key. */
export async function writeWith1(endpoint: string, table: string): Promise<void> {
  const dynamoose = requireOld('dynamoose-1') as Dynamoose1;
  dynamoose.setDDB(new dynamoose.AWS.DynamoDB({ endpoint, ...CREDENTIALS }));
  const Post = dynamoose.model(
    table,
    new dynamoose.Schema({
      pk: { type: String, hashKey: true },
      timestamp: { type: Date, rangeKey: true },
      title: String,
      published: Boolean,
      tags: [String],
      scores: [Number],
      meta: Object,
    }),
    NO_TABLE_MANAGEMENT,
  );
  for (let i = 0; i < PLAN.postsV1; i++) {
    const key = postKey(i);
    await new Post({
      pk: key.pk,
      timestamp: new Date(key.timestamp),
      title: `post ${i}`,
      published: i % 2 === 1,
      tags: ['news', `p${i}`],
      scores: [i + 1, 10],
      meta: { lang: 'en' },
    }).save();
  }
}

/**
 * dynamoose 2.8.8 (aws-sdk 2.x): plain arrays as lists (next to 1.x's sets), saveUnknown names
 * with dots inside maps (#1589), a nested Date without a sub-schema saved as {} (#1373), a
 * Combine attribute left stale by another service's partial update, TTL in seconds,
 * Model.update() upserts and whole-map replacement (#1776).
 */
export async function writeWith2(endpoint: string, table: string): Promise<void> {
  const dynamoose = requireOld('dynamoose-2') as Dynamoose2;
  dynamoose.aws.ddb.set(new dynamoose.aws.sdk.DynamoDB({ endpoint, ...CREDENTIALS }));
  const Post = dynamoose.model(
    table,
    new dynamoose.Schema({
      pk: { type: String, hashKey: true },
      timestamp: { type: Date, rangeKey: true },
      title: String,
      published: Boolean,
      tags: { type: Array, schema: [String] },
      scores: { type: Array, schema: [Number] },
      meta: Object,
    }),
    NO_TABLE_MANAGEMENT,
  );
  for (let i = PLAN.postsV1; i < PLAN.postsV1 + PLAN.postsV2; i++) {
    const key = postKey(i);
    await new Post({
      pk: key.pk,
      timestamp: new Date(key.timestamp),
      title: `post ${i}`,
      published: true,
      tags: ['news'],
      scores: [i],
      meta: { lang: 'es' },
    }).save();
  }
  const orderKeys = { pk: { type: String, hashKey: true }, timestamp: { type: Number, rangeKey: true } };
  const Order = dynamoose.model(
    table,
    new dynamoose.Schema(
      {
        ...orderKeys,
        first: String,
        last: String,
        fullName: { type: { value: 'Combine', settings: { attributes: ['first', 'last'] } } },
        address: { type: Object, schema: { city: String, zip: String } },
        details: Object,
      },
      { timestamps: true, saveUnknown: ['details.**'] },
    ),
    {
      ...NO_TABLE_MANAGEMENT,
      waitForActive: { enabled: false },
      expires: { ttl: 3_600_000, attribute: KEYS.ttl },
    },
  );
  for (let i = 0; i < PLAN.orders; i++) {
    await new Order({
      ...orderKey(i),
      first: 'Ana',
      last: `Lopez${i}`,
      address: { city: 'Madrid', zip: '28001' },
      details: { shippedAt: new Date(Date.UTC(2021, 5, 1)), 'gift.wrap': i % 2 === 0 },
    }).save();
  }
  // Another service's model of the same items, without the Combine: 2.x refuses a partial
  // update of a Combine's sources through the model that declares it, not through this one.
  const OrderPatch = dynamoose.model(
    table,
    new dynamoose.Schema(
      {
        ...orderKeys,
        first: String,
        address: { type: Object, schema: { city: String, zip: String } },
      },
      { timestamps: true },
    ),
    { ...NO_TABLE_MANAGEMENT, waitForActive: { enabled: false } },
  );
  for (let i = 0; i < PLAN.patchedOrders; i++)
    await OrderPatch.update(orderKey(i), { first: 'Eva', address: { city: 'Sevilla' } });
  for (let i = PLAN.orders; i < PLAN.orders + PLAN.upsertedOrders; i++)
    await Order.update(orderKey(i), { first: 'Leo', last: 'Ruiz' });
}

function point4(endpoint: string): void {
  dynamoose4.aws.ddb.set(
    new dynamoose4.aws.ddb.DynamoDB({
      endpoint,
      region: CREDENTIALS.region,
      credentials: { accessKeyId: CREDENTIALS.accessKeyId, secretAccessKey: CREDENTIALS.secretAccessKey },
    }),
  );
}

const MODEL_4 = { create: false, waitForActive: false };

/** dynamoose 4.2.0 (AWS SDK v3): two services write `ttl` as Dates, one in ms, one as ISO. */
export async function writeWith4(endpoint: string, table: string): Promise<void> {
  point4(endpoint);
  const keys = { pk: { type: String, hashKey: true }, timestamp: { type: Number, rangeKey: true } } as const;
  const id = table.replace(/[^A-Za-z0-9]/g, '');
  const Ms = dynamoose4.model(`${id}SessionMs`, new dynamoose4.Schema({ ...keys, user: String, ttl: Date }), {
    ...MODEL_4,
    tableName: table,
  });
  const Iso = dynamoose4.model(
    `${id}SessionIso`,
    new dynamoose4.Schema({
      ...keys,
      user: String,
      ttl: { type: { value: Date, settings: { storage: 'iso' } } },
    }),
    { ...MODEL_4, tableName: table },
  );
  const later = new Date(Date.UTC(2099, 0, 1));
  for (let i = 0; i < PLAN.msSessions; i++) await Ms.create({ ...sessionKey(i), user: `u${i}`, ttl: later });
  for (let i = PLAN.msSessions; i < PLAN.msSessions + PLAN.isoSessions; i++)
    await Iso.create({ ...sessionKey(i), user: `u${i}`, ttl: later });
}

export async function writeAllReleases(
  client: DynamoDBClient,
  endpoint: string,
  table: string,
): Promise<void> {
  await createReleasesTable(client, endpoint, table);
  await writeWith08(endpoint, table);
  await writeWith1(endpoint, table);
  await writeWith2(endpoint, table);
  await writeWith4(endpoint, table);
}

/**
 * A clean table: dynamoose 4.2.0 writing what its schema says, native booleans, maps, lists and
 * sets where the schema declares them, Dates in epoch ms (the new ORM's default), no TTL.
 */
export async function writeClean4(client: DynamoDBClient, endpoint: string, table: string): Promise<number> {
  await createTable(client, table, { partitionKey: ['pk', 'S'], sortKey: ['sk', 'S'] });
  point4(endpoint);
  const id = table.replace(/[^A-Za-z0-9]/g, '');
  const Account = dynamoose4.model(
    `${id}Account`,
    new dynamoose4.Schema(
      {
        pk: { type: String, hashKey: true },
        sk: { type: String, rangeKey: true },
        active: Boolean,
        address: { type: Object, schema: { city: String, zip: String } },
        tags: { type: Array, schema: [String] },
        roles: { type: Set, schema: [String] },
        lastLoginAt: Date,
      },
      { timestamps: true },
    ),
    { ...MODEL_4, tableName: table },
  );
  const count = 8;
  for (let i = 0; i < count; i++)
    await Account.create({
      pk: `ACCOUNT#${i}`,
      sk: 'PROFILE',
      active: i % 2 === 0,
      address: { city: 'Madrid', zip: '28001' },
      tags: ['a', 'b'],
      roles: new Set(['admin', `r${i}`]),
      lastLoginAt: new Date(Date.UTC(2024, 0, 1 + i)),
    });
  return count;
}
