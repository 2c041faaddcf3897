import type { AttributeSchema, SchemaReport } from '../../shared/ipc/schema';

/**
 * The pipeline forms of a report (`dynotable schema --format json|md`): the JSON issue 15 names,
 * `{table, itemsScanned, sampled, entities: [{name, keyPattern, items, attributes}], attributes,
 * warnings}`, each attribute `{path, items, types, formats, distinct, min, max, …}`.
 */
export interface PipelineAttribute {
  path: string;
  items: number;
  share: number;
  types: AttributeSchema['types'];
  formats: AttributeSchema['formats'];
  distinct: number;
  distinctIsExact: boolean;
  min?: string;
  max?: string;
  length?: { min: number; max: number };
  setSize?: { min: number; max: number };
  topValues?: AttributeSchema['topValues'];
}

function pipelineAttribute(a: AttributeSchema): PipelineAttribute {
  return {
    path: a.path,
    items: a.items,
    share: Math.round(a.share * 10_000) / 10_000,
    types: a.types,
    formats: a.formats,
    distinct: a.distinct.count,
    distinctIsExact: a.distinct.isExact,
    ...(a.number ? { min: a.number.min, max: a.number.max } : {}),
    ...(a.length ? { length: a.length } : {}),
    ...(a.setSize ? { setSize: a.setSize } : {}),
    ...(a.topValues ? { topValues: a.topValues } : {}),
  };
}

/** The report narrowed to one entity (its attributes become the top-level ones), or as it is. */
export function pipelineJson(report: SchemaReport, entity?: string): object {
  const entities = entity ? report.entities.filter((e) => e.name === entity) : report.entities;
  const only = entity ? entities[0] : undefined;
  return {
    table: report.table,
    ...(report.index ? { index: report.index } : {}),
    itemsScanned: report.itemsScanned,
    sampled: report.sampled,
    complete: report.complete,
    draw: report.draw,
    entities: entities.map((e) => ({
      name: e.name,
      keyPattern: e.keyPattern,
      items: e.items,
      attributes: e.attributes.map(pipelineAttribute),
    })),
    attributes: (only ? only.attributes : report.attributes).map(pipelineAttribute),
    warnings: report.warnings.filter((w) => !only || !w.entity || w.entity === only.name),
  };
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

function attributeRows(attributes: AttributeSchema[]): string[] {
  const rows = [
    '| path | items | share | types | formats | distinct | min | max |',
    '| --- | ---: | ---: | --- | --- | ---: | ---: | ---: |',
  ];
  for (const a of attributes) {
    const types = Object.entries(a.types)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ');
    const formats = Object.entries(a.formats)
      .map(([f, n]) => `${f} ${n}`)
      .join(', ');
    rows.push(
      `| \`${cell(a.path)}\` | ${a.items} | ${Math.round(a.share * 100)}% | ${types} | ${formats} | ${a.distinct.isExact ? '' : '≈'}${a.distinct.count} | ${a.number?.min ?? ''} | ${a.number?.max ?? ''} |`,
    );
  }
  return rows;
}

export function pipelineMarkdown(report: SchemaReport, entity?: string): string {
  const entities = entity ? report.entities.filter((e) => e.name === entity) : report.entities;
  const lines = [
    `# Schema of ${report.table}${report.index ? ` (index ${report.index})` : ''}`,
    '',
    report.draw.description,
    '',
  ];
  if (report.warnings.length > 0) {
    lines.push('## Warnings', '');
    for (const w of report.warnings)
      lines.push(`- **${w.kind}** ${w.path ? `\`${w.path}\`: ` : ''}${w.detail}`);
    lines.push('');
  }
  if (!entity)
    lines.push(`## All items (${report.itemsScanned})`, '', ...attributeRows(report.attributes), '');
  for (const e of entities)
    lines.push(
      `## ${e.name} (${e.items} items, ${cell(e.keyPattern)})`,
      '',
      ...attributeRows(e.attributes),
      '',
    );
  return `${lines.join('\n')}\n`;
}
