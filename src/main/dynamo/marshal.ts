import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import { defineOwn } from '../../shared/dynamo/proto-keys';

/**
 * Tagged wire form ⇄ the SDK's AttributeValue. The only difference is binary: base64 on the
 * wire, Uint8Array for the SDK. Numbers stay strings both ways, so no digit is ever lost.
 */
export function toSdkValue(value: AttributeValue): SdkValue {
  if ('B' in value) return { B: Buffer.from(value.B, 'base64') };
  if ('BS' in value) return { BS: value.BS.map((b) => Buffer.from(b, 'base64')) };
  if ('L' in value) return { L: value.L.map(toSdkValue) };
  if ('M' in value) return { M: toSdkItem(value.M) };
  return value;
}

export function toSdkItem(item: Item): Record<string, SdkValue> {
  const out: Record<string, SdkValue> = {};
  for (const [name, value] of Object.entries(item)) defineOwn(out, name, toSdkValue(value));
  return out;
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

export function fromSdkValue(value: SdkValue): AttributeValue {
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: true };
  if (value.L !== undefined) return { L: value.L.map(fromSdkValue) };
  if (value.M !== undefined) return { M: fromSdkItem(value.M) };
  if (value.SS !== undefined) return { SS: [...value.SS] };
  if (value.NS !== undefined) return { NS: [...value.NS] };
  if (value.BS !== undefined) return { BS: value.BS.map(base64) };
  throw new Error(`Unknown DynamoDB attribute value type: ${Object.keys(value).join(',')}`);
}

export function fromSdkItem(item: Record<string, SdkValue>): Item {
  const out: Item = {};
  for (const [name, value] of Object.entries(item)) defineOwn(out, name, fromSdkValue(value));
  return out;
}
