/** Rates over the last few seconds (not since the start), so a throttled stretch shows at once. */
export class RateMeter {
  private readonly samples = new Map<string, { t: number; v: number }[]>();

  constructor(
    private readonly windowMs = 3000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  rate(value: number, series = 'items'): number {
    const t = this.now();
    const list = this.samples.get(series) ?? [];
    list.push({ t, v: value });
    while (list.length > 2 && t - (list[1] as { t: number }).t >= this.windowMs) list.shift();
    this.samples.set(series, list);
    const first = list[0] as { t: number; v: number };
    const dt = (t - first.t) / 1000;
    return dt > 0 ? (value - first.v) / dt : 0;
  }

  /**
   * The rate over the window up to `value` without recording it; undefined until the samples
   * span half a second (a rate from two samples a moment apart would jump about).
   */
  current(value: number, series = 'items'): number | undefined {
    const first = this.samples.get(series)?.[0];
    if (!first) return undefined;
    const dt = (this.now() - first.t) / 1000;
    return dt >= 0.5 ? (value - first.v) / dt : undefined;
  }
}
