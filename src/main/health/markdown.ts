import type { HealthReport, HealthSeverity } from '../../shared/ipc/health';
import { usd } from './pricing';

export const SEVERITIES: readonly HealthSeverity[] = ['info', 'warning', 'critical'];

/** Findings at or above `severity`: what `dynotable health --fail-on` fails a pipeline on. */
export function findingsAtLeast(report: HealthReport, severity: HealthSeverity): number {
  const floor = SEVERITIES.indexOf(severity);
  return report.findings.filter((f) => SEVERITIES.indexOf(f.severity) >= floor).length;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The report as Markdown for a pull request or a job summary: findings first, then the figures. */
export function healthMarkdown(report: HealthReport): string {
  const lines = [`# Health of ${report.table}`, '', report.draw.description, ''];
  if (report.cloudWatch.state === 'unreachable') lines.push(`> ${report.cloudWatch.message ?? ''}`, '');
  lines.push('## Findings', '');
  if (report.findings.length === 0) lines.push('None.', '');
  else {
    lines.push('| Severity | Finding | Evidence | Saves / month |', '|---|---|---|---|');
    for (const f of report.findings)
      lines.push(
        `| ${f.severity} | ${cell(f.title)} | ${cell(f.evidence)} | ${f.monthlySavings !== undefined ? usd(f.monthlySavings) : ''} |`,
      );
    lines.push('');
  }
  lines.push('## Item sizes', '', '| Entity | Items | p50 | p95 | max |', '|---|---|---|---|---|');
  for (const e of report.sizes.entities)
    lines.push(`| ${cell(e.entity)} | ${e.items} | ${e.p50} | ${e.p95} | ${e.max} |`);
  lines.push(
    '',
    '## TTL',
    '',
    `${report.ttl.status}${report.ttl.attribute ? ` on ${report.ttl.attribute}` : ''}`,
    '',
  );
  if (report.ttl.attribute) {
    lines.push('| Value | Items |', '|---|---|');
    for (const [kind, n] of Object.entries(report.ttl.counts)) lines.push(`| ${kind} | ${n} |`);
    lines.push('');
  }
  lines.push('## Cost', '');
  if (report.cost.storageMonthly !== undefined)
    lines.push(`Storage ${usd(report.cost.storageMonthly)} a month.`);
  if (report.cost.onDemandMonthly !== undefined && report.cost.provisionedMonthly !== undefined)
    lines.push(
      `At this window's traffic: on-demand ${usd(report.cost.onDemandMonthly)}, provisioned ${usd(report.cost.provisionedMonthly)} a month.`,
    );
  lines.push('', report.cost.prices, '');
  return lines.join('\n');
}
