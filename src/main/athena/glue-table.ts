import type { SchemaValueType } from '../../shared/ipc/schema';
import type { AttrNode } from './export-schema';
import { glueChildren, memberName } from './glue-names';

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

export interface ExportTableSpec {
  name: string;
  /** s3://bucket/prefix/AWSDynamoDB/<export id>/data/ */
  location: string;
  root: AttrNode;
  exportArn: string;
}

/** A Glue TableInput over a DynamoDB JSON export: one `item` column read by the OpenX JSON SerDe. */
export function glueTableInput(spec: ExportTableSpec): { table: GlueTableInput; notes: string[] } {
  const notes: string[] = [];
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
