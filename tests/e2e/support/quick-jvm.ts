/**
 * The e2e layer's DynamoDB Local JVMs serve a few hundred small requests per file (the run's
 * shared one, a few thousand). Java's second JIT compiler (C2) and the parallel collector pay off in
 * long runs; for these they were most of the CPU a start costs. The client compiler alone and
 * the serial collector halved a start on a seeded copy (3.7 → 2.1 s CPU, docs/PERFORMANCE.md).
 * JAVA_TOOL_OPTIONS reaches every java the tests start (the playground's, and
 * tests/support/dynamo-local.ts's) without the product's launch arguments changing; java notes
 * "Picked up JAVA_TOOL_OPTIONS" on stderr, before anything DynamoDB Local says.
 */
export const QUICK_JVM_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:CICompilerCount=1';

/**
 * Sets JAVA_TOOL_OPTIONS for java processes this process starts, unless the caller set it, and
 * returns how to put it back (the global setup shares its process with other projects' runs).
 */
export function useQuickJvm(): () => void {
  const before = process.env.JAVA_TOOL_OPTIONS;
  if (before !== undefined) return () => undefined;
  process.env.JAVA_TOOL_OPTIONS = QUICK_JVM_OPTIONS;
  return () => delete process.env.JAVA_TOOL_OPTIONS;
}
