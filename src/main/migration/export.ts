import { csvRecords } from '../csv/csv-text';
import type { ExportFormat, MigrationReport } from '../../shared/ipc/migration';
import type { DynamooseReview } from '../../shared/ipc/migration-dynamoose';

/** JSON is the report itself; CSV is one row per finding; Markdown is for a PR or a ticket. */
export function exportReport(
  report: MigrationReport,
  format: ExportFormat,
): { content: string; fileName: string; mimeType: string } {
  const base = `migration-${report.table}-${report.finishedAt.slice(0, 19).replace(/[:T]/g, '-')}`;
  if (format === 'csv') return { content: toCsv(report), fileName: `${base}.csv`, mimeType: 'text/csv' };
  if (format === 'md')
    return { content: toMarkdown(report), fileName: `${base}.md`, mimeType: 'text/markdown' };
  return {
    content: `${JSON.stringify(report, null, 2)}\n`,
    fileName: `${base}.json`,
    mimeType: 'application/json',
  };
}

const CSV_HEADER = [
  'finding',
  'name',
  'items',
  'parentMissing',
  'sameAsNested',
  'differsFromNested',
  'iso',
  'epochMillis',
  'epochSeconds',
  'mixed',
  'isKey',
  'indexKeyOf',
  'needsFix',
  'sampleKeys',
  'entity',
  'detail',
];

export function toCsv(report: MigrationReport): string {
  const rows: (string | number | boolean)[][] = [CSV_HEADER];
  for (const d of report.dottedAttributes) {
    rows.push([
      'dotted',
      d.name,
      d.items,
      d.parentMissing,
      d.sameAsNested,
      d.differsFromNested,
      '',
      '',
      '',
      '',
      '',
      '',
      true,
      JSON.stringify(d.sampleKeys),
      '',
      '',
    ]);
  }
  for (const d of report.dateAttributes) {
    const items = d.iso + d.epochMillis + d.epochSeconds;
    rows.push([
      'date',
      d.path,
      items,
      '',
      '',
      '',
      d.iso,
      d.epochMillis,
      d.epochSeconds,
      d.mixed,
      d.isKey,
      d.indexKeyOf.join(' '),
      d.mixed,
      JSON.stringify(d.sampleKeys),
      '',
      '',
    ]);
  }
  // Findings of older releases: the finding column holds the kind, name the path.
  for (const f of report.findings ?? []) {
    rows.push([
      f.kind,
      f.path,
      f.items,
      ...Array<string>(9).fill(''),
      f.isDataFix,
      JSON.stringify(f.sampleKeys),
      f.entity ?? '',
      f.detail,
    ]);
  }
  // A blank is "does not apply", not an empty string: an unquoted empty cell.
  return csvRecords(rows.map((r) => r.map((v) => (v === '' ? undefined : String(v)))));
}

function md(text: string): string {
  return text.replace(/[|\\`*_[\]<>]/g, (c) => `\\${c}`).replace(/\n/g, ' ');
}

function keys(list: readonly Record<string, unknown>[]): string {
  return list.length === 0 ? '' : list.map((k) => `\`${JSON.stringify(k).replace(/`/g, "'")}\``).join('<br>');
}

function throttledNote(throttled: number | undefined): string {
  return throttled
    ? `; DynamoDB throttled ${throttled.toLocaleString('en-US')} request(s), which were retried slower`
    : '';
}

export function toMarkdown(r: MigrationReport): string {
  const lines = [
    `# Migration pre-flight: ${md(r.table)}`,
    '',
    `**${r.verdict.needsFix ? 'Needs fixing' : 'No data fix needed'}** — ${md(r.verdict.line)}`,
    '',
    `- Items scanned: ${r.itemsScanned.toLocaleString('en-US')} of about ${r.tableItemCount.toLocaleString('en-US')}${r.complete ? '' : ' (partial scan)'}`,
    `- Read capacity consumed: ${r.consumedReadCapacity.toLocaleString('en-US')} RCU over ${r.segments} segment(s)${throttledNote(r.throttledRequests)}`,
    `- Scanned ${r.startedAt} → ${r.finishedAt}`,
    '',
    '## Dotted attribute names',
    '',
  ];
  if (r.dottedAttributes.length === 0) lines.push('None: no top-level attribute name contains a dot.');
  else {
    lines.push(
      '| Attribute | Items | No nested value | Same as nested | Differs | Sample keys |',
      '|---|---:|---:|---:|---:|---|',
    );
    for (const d of r.dottedAttributes) {
      lines.push(
        `| \`${d.name.replace(/`/g, "'")}\` | ${d.items} | ${d.parentMissing} | ${d.sameAsNested} | ${d.differsFromNested} | ${keys(d.sampleKeys)} |`,
      );
    }
  }
  lines.push('', '## Date storage', '');
  if (r.dateAttributes.length === 0)
    lines.push('None: no attribute holds ISO-8601 strings and no time-named attribute holds epoch numbers.');
  else {
    lines.push(
      '| Path | ISO | Epoch ms | Epoch s | Mixed | Key | Sample keys |',
      '|---|---:|---:|---:|---|---|---|',
    );
    for (const d of r.dateAttributes) {
      const key = d.isKey
        ? 'table key'
        : d.indexKeyOf.length > 0
          ? `index key (${d.indexKeyOf.map(md).join(', ')})`
          : '';
      lines.push(
        `| \`${d.path.replace(/`/g, "'")}\` | ${d.iso} | ${d.epochMillis} | ${d.epochSeconds} | ${d.mixed ? '**yes**' : 'no'} | ${key} | ${keys(d.sampleKeys)} |`,
      );
    }
  }
  lines.push('', '## Left by older dynamoose releases', '');
  const findings = r.findings ?? [];
  if (findings.length === 0) lines.push('None of the kinds in docs/MIGRATION.md were found.');
  else {
    lines.push(
      '| Kind | Path | Entity | Items | Why it matters | Sample keys |',
      '|---|---|---|---:|---|---|',
    );
    for (const f of findings)
      lines.push(
        `| ${f.kind} | \`${f.path.replace(/`/g, "'")}\` | ${md(f.entity ?? '')} | ${f.items} | ${md(f.detail)} ${md(f.fix)} | ${keys(f.sampleKeys)} |`,
      );
  }
  if (r.untrackedPaths > 0)
    lines.push(
      '',
      `${r.untrackedPaths} further date-like paths were not tracked (the report keeps at most 5,000).`,
    );
  if (r.dynamoose) lines.push(...dynamooseMarkdown(r.dynamoose));
  if (r.verdict.mustFix.length + r.verdict.settings.length > 0) {
    lines.push('', '## What to do', '');
    for (const m of r.verdict.mustFix) lines.push(`- [ ] Fix: ${md(m)}`);
    for (const s of r.verdict.settings) lines.push(`- [ ] Setting: ${md(s)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The dynamoose schema file's part: its settings, the items' conformance, the behaviours that change. */
function dynamooseMarkdown(d: DynamooseReview): string[] {
  const lines = ['', `## The dynamoose schema file (${md(d.file)})`, ''];
  if (d.notes.length > 0) {
    lines.push(
      '| Model | Path | Setting | What it did | What the dynotable-orm model must say |',
      '|---|---|---|---|---|',
    );
    for (const n of d.notes)
      lines.push(
        `| ${md(n.model)} | \`${n.path.replace(/`/g, "'")}\` | ${md(n.setting)} | ${md(n.meaning)} | ${md(n.ormSays)} |`,
      );
  }
  const problems = d.conformance.filter((c) => c.problem);
  lines.push(
    '',
    problems.length === 0 ? 'Every declared attribute holds what its model declares.' : '### Conformance',
    '',
  );
  if (problems.length > 0) {
    lines.push('| Model | Attribute | Declared | Problem | Sample keys |', '|---|---|---|---|---|');
    for (const c of problems)
      lines.push(
        `| ${md(c.model)} | \`${c.path.replace(/`/g, "'")}\` | ${md(c.declared)} | ${md(c.problem ?? '')} | ${keys(c.sampleKeys)} |`,
      );
  }
  lines.push('', '### Behaviours that change', '');
  for (const b of d.behaviours) lines.push(`- ${md(b)}`);
  const unread = d.models.flatMap((m) => m.unread.map((u) => `${m.name}: ${u}`));
  if (unread.length > 0) {
    lines.push('', 'Not read (not literals; DynoTable does not run the file):', '');
    for (const u of unread) lines.push(`- ${md(u)}`);
  }
  return lines;
}
