/**
 * What each timed scan of the scan benches cost besides its items/s, printed under its round:
 * DynamoDB Local's CPU by thread (its JIT compilers, its collector, the SQLite queue that runs
 * every query one at a time, Jetty's request threads), the client's CPU (main thread, the rest),
 * the client's collector pauses, when the first and last answers came, a DescribeTable, and new
 * sockets. A round that falls below the others can then be read: was it DynamoDB Local still
 * compiling, the client collecting, a describe, a fresh connection, or neither
 * (docs/PERFORMANCE.md, "session 22, schemascan4"). Nothing of it runs inside the timed part
 * but a middleware and a collector observer, alike for every series. BENCH_TRACE=0 turns it
 * off; BENCH_TRACE=timeline adds each request's start and end, by segment (d: DescribeTable),
 * and a line as each scan begins.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import diagnostics from 'node:diagnostics_channel';
import { readdirSync, readFileSync } from 'node:fs';
import { type PerformanceEntry, PerformanceObserver, constants } from 'node:perf_hooks';

const MODE = process.env.BENCH_TRACE ?? '1';
const isOn = MODE !== '0';
const hasTimeline = MODE === 'timeline';

type Ticks = Map<string, number>;

/** /proc's clock ticks (10 ms) by thread kind, so a second sample shows where a scan's CPU went. */
function threadTicks(pid: number): Ticks {
  const out: Ticks = new Map();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out; // not Linux, or the process is gone
  }
  for (const tid of tids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended between the listing and the read
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    // After the name: state is field 3; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    const kind = /Compiler/.test(name)
      ? 'compiler'
      : /GC Thread|VM Thread/.test(name)
        ? 'collector'
        : name.startsWith('SQLite')
          ? 'SQLite'
          : name.startsWith('qtp')
            ? 'Jetty'
            : tid === String(pid)
              ? 'main'
              : 'other';
    out.set(kind, (out.get(kind) ?? 0) + ticks);
  }
  return out;
}

function ticksSince(before: Ticks, after: Ticks, kinds: string[]): string {
  const ms = (kind: string) => ((after.get(kind) ?? 0) - (before.get(kind) ?? 0)) * 10;
  const all = [...after.keys()].reduce((sum, kind) => sum + ms(kind), 0);
  return `${all} ms (${kinds.map((kind) => `${kind} ${ms(kind)}`).join(', ')})`;
}

export interface ScanTracer {
  /** Before a timed scan, outside its time. */
  begin(series: string): void;
  /** After it, outside its time: the lines to print, or undefined when tracing is off. */
  end(series: string, wallMs: number): Promise<string | undefined>;
}

export function scanTracer(client: DynamoDBClient, javaPid: number | undefined): ScanTracer {
  if (!isOn) return { begin: () => undefined, end: () => Promise.resolve(undefined) };
  const pauses: { kind: number; ms: number }[] = [];
  const keep = (entries: PerformanceEntry[]) => {
    for (const entry of entries)
      pauses.push({
        kind: (entry as unknown as { detail: { kind: number } }).detail.kind,
        ms: entry.duration,
      });
  };
  const observer = new PerformanceObserver((list) => keep(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  let sockets = 0;
  diagnostics.subscribe('net.client.socket', () => sockets++);

  let started = 0;
  let firstAnswer = 0;
  let lastAnswer = 0;
  let describeMs = 0;
  const timeline: string[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const sent = performance.now();
      const out = await next(args);
      const answered = performance.now();
      if (context.commandName === 'DescribeTableCommand') describeMs += answered - sent;
      else {
        firstAnswer ||= answered;
        lastAnswer = answered;
      }
      if (hasTimeline) {
        const segment = (args.input as { Segment?: number }).Segment ?? 'd';
        timeline.push(`${segment}:${(sent - started).toFixed(0)}-${(answered - started).toFixed(0)}`);
      }
      return out;
    },
    { step: 'finalizeRequest', name: 'scanBenchTrace' },
  );

  let java: Ticks = new Map();
  let own: Ticks = new Map();
  let pausesBefore = 0;
  let socketsBefore = 0;
  return {
    begin(series) {
      // A line to cut V8's own trace (BENCH_NODE_FLAGS='--trace-opt --trace-deopt') by scan.
      if (hasTimeline) console.log(`  ${series} begins`);
      java = javaPid === undefined ? new Map<string, number>() : threadTicks(javaPid);
      own = threadTicks(process.pid);
      pausesBefore = pauses.length;
      socketsBefore = sockets;
      firstAnswer = lastAnswer = describeMs = 0;
      timeline.length = 0;
      started = performance.now();
    },
    async end(series, wallMs) {
      // A collection's entry is queued after it ends: one turn, then those not yet delivered.
      await new Promise((resolve) => setImmediate(resolve));
      keep(observer.takeRecords());
      const gcs = pauses.slice(pausesBefore);
      const gc = (kind: number, name: string) => {
        const of = gcs.filter((g) => g.kind === kind);
        return `${of.length} ${name} ${of.reduce((sum, g) => sum + g.ms, 0).toFixed(0)} ms`;
      };
      const ended = started + wallMs;
      const lines = [
        `  ${series.padEnd(15)}DynamoDB Local CPU ${javaPid === undefined ? '?' : ticksSince(java, threadTicks(javaPid), ['compiler', 'collector', 'SQLite', 'Jetty'])}; ` +
          `client CPU ${ticksSince(own, threadTicks(process.pid), ['main', 'other'])}; ` +
          `client GC ${gc(constants.NODE_PERFORMANCE_GC_MINOR, 'minor')}, ${gc(constants.NODE_PERFORMANCE_GC_MAJOR, 'major')}; ` +
          (describeMs ? `DescribeTable ${describeMs.toFixed(0)} ms; ` : '') +
          `first page +${(firstAnswer - started).toFixed(0)} ms, last ${(ended - lastAnswer).toFixed(0)} ms before the end; ` +
          `${sockets - socketsBefore} new sockets`,
      ];
      if (hasTimeline) lines.push(`  ${''.padEnd(15)}requests ${timeline.join(' ')}`);
      return lines.join('\n');
    },
  };
}
