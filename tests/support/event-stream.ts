import { crc32 } from 'node:zlib';

/**
 * AWS event-stream framing, written out by hand so the fake Bedrock server does not share code
 * with the SDK it tests: prelude (total length, headers length, prelude CRC32), headers
 * (name length, name, type 7 = string, value length, value), payload, message CRC32.
 */
export function encodeFrame(headers: Record<string, string>, payload: Uint8Array): Buffer {
  const headerParts: Buffer[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const nameBytes = Buffer.from(name, 'utf8');
    const valueBytes = Buffer.from(value, 'utf8');
    const part = Buffer.alloc(1 + nameBytes.length + 1 + 2 + valueBytes.length);
    let offset = part.writeUInt8(nameBytes.length, 0);
    offset += nameBytes.copy(part, offset);
    offset = part.writeUInt8(7, offset);
    offset = part.writeUInt16BE(valueBytes.length, offset);
    valueBytes.copy(part, offset);
    headerParts.push(part);
  }
  const headerBytes = Buffer.concat(headerParts);
  const total = 12 + headerBytes.length + payload.length + 4;
  const frame = Buffer.alloc(total);
  frame.writeUInt32BE(total, 0);
  frame.writeUInt32BE(headerBytes.length, 4);
  frame.writeUInt32BE(crc32(frame.subarray(0, 8)), 8);
  headerBytes.copy(frame, 12);
  Buffer.from(payload).copy(frame, 12 + headerBytes.length);
  frame.writeUInt32BE(crc32(frame.subarray(0, total - 4)), total - 4);
  return frame;
}

export function eventFrame(eventType: string, body: unknown): Buffer {
  return encodeFrame(
    { ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' },
    Buffer.from(JSON.stringify(body), 'utf8'),
  );
}

export function exceptionFrame(exceptionType: string, message: string): Buffer {
  return encodeFrame(
    { ':exception-type': exceptionType, ':content-type': 'application/json', ':message-type': 'exception' },
    Buffer.from(JSON.stringify({ message }), 'utf8'),
  );
}
