import type { AttributeType, AttributeValue } from '../../../shared/dynamo/attribute-value';

/** A value of the new type, keeping what can be kept (text between S and N, members between lists and sets). */
export function convertValue(value: AttributeValue, type: AttributeType): AttributeValue {
  const text = 'S' in value ? value.S : 'N' in value ? value.N : 'B' in value ? value.B : '';
  const members =
    'SS' in value ? value.SS : 'NS' in value ? value.NS : 'BS' in value ? value.BS : text ? [text] : [];
  switch (type) {
    case 'S':
      return { S: text };
    case 'N':
      return { N: text };
    case 'B':
      return { B: text };
    case 'BOOL':
      return { BOOL: 'BOOL' in value ? value.BOOL : false };
    case 'NULL':
      return { NULL: true };
    case 'L':
      return { L: 'L' in value ? value.L : members.map((m) => ({ S: m })) };
    case 'M':
      return { M: 'M' in value ? value.M : {} };
    case 'SS':
      return { SS: members };
    case 'NS':
      return { NS: members };
    case 'BS':
      return { BS: members };
  }
}
