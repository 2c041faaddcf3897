import type { SchemaValueType } from '../../shared/ipc/schema';
import type { AttrNode } from './export-schema';
import { type ExportFormat, glueChildren, memberName } from './glue-names';

/** Hive names are case-insensitive words; reserved words and anything unusual go in backticks. */
const BARE = /^[a-z_][a-z0-9_]*$/;
const HIVE_RESERVED = new Set(
  'all alter and array as between bigint binary boolean both by case cast char column create cross current date decimal delete describe distinct double drop else end exists external false float for from full function grant group having if in inner insert int interval into is join lateral left like local map macro none not null of on or order out outer partition percent range reads revoke right rollup row rows select set smallint struct table then timestamp to true union update user using values when where window with'.split(
    ' ',
  ),
);

export function hiveName(name: string): string {
  return BARE.test(name) && !HIVE_RESERVED.has(name) ? name : `\`${name.replace(/`/g, '``')}\``;
}

const SCALAR_MEMBER: Partial<Record<SchemaValueType, string>> = {
  S: 'string',
  // Kept as text: the SerDe would round a number into DOUBLE or fail it into DECIMAL; the query casts.
  N: 'string',
  B: 'string',
  BOOL: 'boolean',
  NULL: 'boolean',
  SS: 'array<string>',
  NS: 'array<string>',
  BS: 'array<string>',
};

const ORDER: SchemaValueType[] = ['S', 'N', 'B', 'BOOL', 'NULL', 'SS', 'NS', 'BS', 'L', 'M'];

/**
 * The Hive type of one attribute in DynamoDB JSON: a struct with one member per type the
 * Schema view saw there (`struct<n:string,s:string>` for an attribute that is sometimes a
 * number, sometimes a string), so every value has somewhere to land and none is lost.
 */
export function attributeType(node: AttrNode, where: string, notes: string[]): string {
  const members: string[] = [];
  for (const type of ORDER) {
    if (!node.types.has(type)) continue;
    const scalar = SCALAR_MEMBER[type];
    if (scalar) members.push(`${hiveName(memberName(type))}:${scalar}`);
    else if (type === 'L')
      members.push(`l:array<${node.element ? attributeType(node.element, `${where}[]`, notes) : 'string'}>`);
    else if (node.children.size > 0) members.push(`m:${mapType(node, where, notes)}`);
    else notes.push(`${where} was only seen as an empty map; it reads as missing in Athena.`);
  }
  const seen = [...node.types].filter((t) => t !== 'NULL');
  if (seen.length > 1)
    notes.push(
      `${where} holds ${seen.join(', ')}: each type is its own member (${seen.map((t) => `${where}.${memberName(t)}`).join(', ')}), so no value is lost.`,
    );
  return `struct<${members.join(',')}>`;
}

function mapType(node: AttrNode, where: string, notes: string[]): string {
  const fields = [...glueChildren(node, where || 'the item')].map(
    ([field, child]) =>
      `${hiveName(field)}:${attributeType(child.node, where ? `${where}.${child.name}` : child.name, notes)}`,
  );
  return `struct<${fields.join(',')}>`;
}

/** The type of the export's one column, `item`: every top-level attribute as a field. */
export function itemType(root: AttrNode, notes: string[]): string {
  for (const [field, child] of glueChildren(root, '')) {
    if (field !== child.name.toLowerCase())
      notes.push(
        `"${child.name}" has a dot in its name: Athena reads it as ${field} (the SerDe's dots.in.keys).`,
      );
  }
  return mapType(root, '', notes);
}

/** Ion's native types as the Amazon Ion Hive SerDe reads them (numbers are Ion decimals). */
const ION_SCALAR: Partial<Record<SchemaValueType, string>> = {
  S: 'string',
  N: 'decimal(38,9)',
  B: 'binary',
  BOOL: 'boolean',
  SS: 'array<string>',
  NS: 'array<decimal(38,9)>',
  BS: 'array<binary>',
};

/**
 * Why a column over an Ion export cannot hold what the Schema view saw at this path (or
 * below it), or undefined when it can. Values are native in Ion, with no member per type to keep
 * apart an attribute that is sometimes a number and sometimes a string, and a Hive column has
 * one type; a Hive struct field cannot hold a dot either.
 */
/** The types seen at a path other than NULL, in one order whatever order the items came in. */
const nonNullTypes = (node: AttrNode): SchemaValueType[] =>
  ORDER.filter((t) => t !== 'NULL' && node.types.has(t));

export function ionUnreadable(node: AttrNode, where: string): string | undefined {
  const seen = nonNullTypes(node);
  if (seen.length > 1)
    return `${where} holds ${seen.join(', ')}, and a column over an Ion export has one type in Athena; an export in DynamoDB JSON keeps each type apart`;
  for (const [name, child] of node.children) {
    if (name.includes('.'))
      return `"${name}"${where ? ` in ${where}` : ''} has a dot in its name, which Athena's Ion SerDe cannot read; an export in DynamoDB JSON can`;
    const why = ionUnreadable(child, where ? `${where}.${name}` : name);
    if (why) return why;
  }
  return node.element ? ionUnreadable(node.element, `${where}[]`) : undefined;
}

function ionAttributeType(node: AttrNode, where: string, notes: string[]): string {
  const type = [...node.types].find((t) => t !== 'NULL');
  if (type === undefined) return 'string';
  if (type === 'L')
    return `array<${node.element ? ionAttributeType(node.element, `${where}[]`, notes) : 'string'}>`;
  if (type === 'M') return ionMapType(node, where, notes);
  const r = node.numbers;
  // Numbers whose digits the export told fit a DECIMAL of just their width (the SerDe rounds into a narrower one).
  if (r && r.integer + r.fraction <= 38 && (type === 'N' || type === 'NS')) {
    const decimal = `decimal(${Math.max(1, r.integer + r.fraction)},${r.fraction})`;
    return type === 'N' ? decimal : `array<${decimal}>`;
  }
  // Numbers no DECIMAL holds are read as text: the SerDe gives a string column any Ion value's
  // Ion text (1d-130), which the translation makes canonical (translate/number-text.ts).
  if (r && (type === 'N' || type === 'NS')) return type === 'N' ? 'string' : 'array<string>';
  return ION_SCALAR[type]!;
}

/** Fields the SerDe cannot read are left out, with a note; a query that reads one is refused. */
function ionMapType(node: AttrNode, where: string, notes: string[]): string {
  const fields: string[] = [];
  for (const [field, child] of glueChildren(node, where || 'the item')) {
    const path = where ? `${where}.${child.name}` : child.name;
    const why = child.name.includes('.')
      ? `"${child.name}" has a dot in its name`
      : nonNullTypes(child.node).length > 1
        ? `${path} holds ${nonNullTypes(child.node).join(', ')}`
        : undefined;
    if (why) notes.push(`${why}: the Athena table over this Ion export leaves it out.`);
    else fields.push(`${hiveName(field)}:${ionAttributeType(child.node, path, notes)}`);
  }
  // Hive has no empty struct; a map only ever seen empty reads as a struct that is always NULL.
  return fields.length > 0 ? `struct<${fields.join(',')}>` : 'struct<`$empty`:string>';
}

export interface ExportTableSpec {
  name: string;
  format?: ExportFormat;
  /** s3://bucket/prefix/AWSDynamoDB/<export id>/data/ */
  location: string;
  root: AttrNode;
  exportArn: string;
}

/**
 * A Glue TableInput over an export: one `item` column, read by the OpenX JSON SerDe for
 * DynamoDB JSON and by the Amazon Ion Hive SerDe for Ion (`{Item: {...}}` a value).
 */
export function glueTableInput(spec: ExportTableSpec): { table: GlueTableInput; notes: string[] } {
  const notes: string[] = [];
  if (spec.format === 'ION')
    return {
      notes,
      table: {
        Name: spec.name,
        TableType: 'EXTERNAL_TABLE',
        Parameters: { classification: 'ion', 'dynotable.exportArn': spec.exportArn },
        StorageDescriptor: {
          Columns: [{ Name: 'item', Type: ionMapType(spec.root, '', notes) }],
          Location: spec.location,
          InputFormat: 'com.amazon.ionhiveserde.formats.IonInputFormat',
          OutputFormat: 'com.amazon.ionhiveserde.formats.IonOutputFormat',
          SerdeInfo: { SerializationLibrary: 'com.amazon.ionhiveserde.IonHiveSerDe', Parameters: {} },
        },
      },
    };
  const type = itemType(spec.root, notes);
  return {
    notes,
    table: {
      Name: spec.name,
      TableType: 'EXTERNAL_TABLE',
      Parameters: { classification: 'json', compressionType: 'gzip', 'dynotable.exportArn': spec.exportArn },
      StorageDescriptor: {
        Columns: [{ Name: 'item', Type: type }],
        Location: spec.location,
        InputFormat: 'org.apache.hadoop.mapred.TextInputFormat',
        OutputFormat: 'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat',
        SerdeInfo: {
          SerializationLibrary: 'org.openx.data.jsonserde.JsonSerDe',
          Parameters: { 'dots.in.keys': 'true', 'case.insensitive': 'true' },
        },
      },
    },
  };
}

export interface GlueTableInput {
  Name: string;
  TableType: string;
  Parameters: Record<string, string>;
  StorageDescriptor: {
    Columns: { Name: string; Type: string }[];
    Location: string;
    InputFormat: string;
    OutputFormat: string;
    SerdeInfo: { SerializationLibrary: string; Parameters: Record<string, string> };
  };
}
