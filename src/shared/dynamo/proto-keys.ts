import type { z } from 'zod';

/**
 * `__proto__` is a legal DynamoDB attribute name, but most JavaScript that builds objects by
 * assignment (zod's records, the SDK's deserializer) drops it or turns it into the object's
 * prototype. Where such code must run on item data, the data goes in with every `__proto__`
 * key renamed to a stand-in no item holds, and the result comes back with the stand-in turned
 * into an own `__proto__` property again. The stand-in is random per process, so no stored name
 * can be mistaken for it.
 */
export const PROTO_STAND_IN = `__proto__\u0000dynotable-${Math.random().toString(36).slice(2)}`;

const hasOwn = (value: object, key: string): boolean => Object.prototype.hasOwnProperty.call(value, key);

/** Defines an own enumerable property, also when the name is `__proto__`. */
export function defineOwn<T>(target: Record<string, T>, name: string, value: T): void {
  if (name === '__proto__')
    Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  else target[name] = value;
}

/** The own property `name` of a record of data, never one inherited from Object.prototype. */
export function ownValue<T>(record: Record<string, T>, name: string): T | undefined {
  return hasOwn(record, name) ? record[name] : undefined;
}

/** Adds one to the count kept under `name` in a record of counts keyed by data. */
export function addCount(counts: Record<string, number>, name: string): void {
  changeCount(counts, name, 1);
}

/** Adds `by` to the count under `name` (a name like `constructor` is data); drops it at zero. */
export function changeCount(counts: Record<string, number>, name: string, by: number): void {
  const count = (ownValue(counts, name) ?? 0) + by;
  if (count > 0) defineOwn(counts, name, count);
  else Reflect.deleteProperty(counts, name);
}

/** True when some object in the value (JSON-like data) has an own `__proto__` key. */
export function hasProtoKey(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== 'object' || ArrayBuffer.isView(next)) continue;
    if (Array.isArray(next)) {
      for (const element of next as unknown[]) pending.push(element);
      continue;
    }
    const record = next as Record<string, unknown>;
    if (hasOwn(record, '__proto__')) return true;
    for (const key of Object.keys(record)) pending.push(record[key]);
  }
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A copy of JSON-like data with every own `__proto__` key renamed to the stand-in. */
export function hideProtoKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hideProtoKeys);
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    copy[key === '__proto__' ? PROTO_STAND_IN : key] = hideProtoKeys(value[key]);
  return copy;
}

/**
 * The value with every stand-in key turned back into an own `__proto__`, in its place among
 * the other keys. Objects without one are changed in place; arrays too.
 */
export function restoreProtoKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restoreProtoKeys(value[i]);
    return value;
  }
  if (!isPlainObject(value)) return value;
  if (!hasOwn(value, PROTO_STAND_IN)) {
    for (const key of Object.keys(value)) value[key] = restoreProtoKeys(value[key]);
    return value;
  }
  const rebuilt = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
  for (const key of Object.keys(value))
    defineOwn(rebuilt, key === PROTO_STAND_IN ? '__proto__' : key, restoreProtoKeys(value[key]));
  return rebuilt;
}

function restoreIssuePaths(issues: z.core.$ZodIssue[]): void {
  for (const issue of issues) {
    const path = issue.path;
    for (let i = 0; i < path.length; i++) if (path[i] === PROTO_STAND_IN) path[i] = '__proto__';
  }
}

/**
 * safeParse with a schema (zod strips `__proto__` keys from records on purpose), keeping
 * `__proto__` names as data, also in the paths of its issues. Input without such a key (nearly
 * all) is parsed as it is.
 */
export function safeParseKeepingProtoKeys<T>(schema: z.ZodType<T>, value: unknown): z.ZodSafeParseResult<T> {
  if (!hasProtoKey(value)) return schema.safeParse(value);
  const result = schema.safeParse(hideProtoKeys(value));
  if (result.success) return { success: true as const, data: restoreProtoKeys(result.data) as T };
  restoreIssuePaths(result.error.issues);
  return result;
}

/** parse() of the same: throws the schema's error, with `__proto__` in its issues' paths. */
export function parseKeepingProtoKeys<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = safeParseKeepingProtoKeys(schema, value);
  if (result.success) return result.data;
  throw result.error;
}
