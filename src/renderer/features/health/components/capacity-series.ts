import type { HealthReport } from '../../../../shared/ipc/health';
import type { LineSeries, LineTone } from './charts';

/** The table solid in the accent colour; each index its own colour and dash, in DescribeTable's order. */
const RESOURCE_STYLES: { tone: LineTone; dash?: string }[] = [
  { tone: 'accent' },
  { tone: 'success', dash: '7 3' },
  { tone: 'warning', dash: '2 3' },
  { tone: 'muted', dash: '9 3 2 3' },
];
const PROVISIONED_DASH = '14 5';
const THROTTLED_DASH = '1 4';

/**
 * One chart's lines for reads or writes: each resource's consumed units per period, its
 * provisioned level (units per second × the period) where it has one, and throttled requests
 * where there were any, told apart by colour, dash and markers together.
 */
export function capacityLines(report: HealthReport, direction: 'Read' | 'Write'): LineSeries[] {
  const consumed = report.capacity.filter((s) => s.metric === `Consumed${direction}CapacityUnits`);
  const resources = [report.table, ...report.indexes.filter((i) => i.kind === 'GSI').map((i) => i.name)];
  const lines: LineSeries[] = [];
  resources.forEach((resource, i) => {
    const style = RESOURCE_STYLES[i % RESOURCE_STYLES.length]!;
    const label = resource === report.table ? `${resource} (table)` : `${resource} (index)`;
    const series = consumed.find((s) => s.resource === resource);
    if (!series) return;
    lines.push({ name: `${label} consumed`, points: series.points, ...style });
    const provisioned = report.provisioned.find((p) => p.resource === resource);
    const level = provisioned ? (direction === 'Read' ? provisioned.read : provisioned.write) : 0;
    if (level > 0)
      lines.push({
        name: `${label} provisioned`,
        points: series.points.map((p) => ({ t: p.t, v: level * report.cloudWatch.periodSeconds })),
        tone: style.tone,
        dash: PROVISIONED_DASH,
        isThin: true,
      });
    const throttled = report.capacity.find(
      (s) => s.resource === resource && s.metric === `${direction}ThrottleEvents`,
    );
    if (throttled && throttled.total > 0)
      lines.push({
        name: `${label} throttled requests`,
        points: throttled.points,
        tone: 'danger',
        dash: THROTTLED_DASH,
        hasMarkers: true,
      });
  });
  return lines;
}
