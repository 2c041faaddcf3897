import { sleep } from '../core/retry';

/**
 * A token bucket fed by what DynamoDB reports: callers wait for a positive balance, send, then
 * spend what the response says it cost (ConsumedCapacity or items). A page's cost is known only
 * afterwards, so the balance may go negative and the next caller waits it off. On throttling
 * the rate halves and then climbs back 10% per successful call (AIMD), so a shared table is
 * never hammered by retries.
 */
export class RateLimiter {
  private tokens: number;
  private rate: number;
  private last: number;

  constructor(
    readonly targetPerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.rate = targetPerSecond;
    // One second of burst at most: enough to keep segments busy, small enough to be polite.
    this.tokens = targetPerSecond;
    this.last = now();
  }

  get currentRate(): number {
    return this.rate;
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.rate, this.tokens + ((t - this.last) / 1000) * this.rate);
    this.last = t;
  }

  /** Milliseconds until a call may go (0 when it may go now). */
  delay(): number {
    this.refill();
    return this.tokens > 0 ? 0 : Math.ceil((-this.tokens / this.rate) * 1000) + 1;
  }

  async take(signal: AbortSignal): Promise<void> {
    for (let wait = this.delay(); wait > 0; wait = this.delay()) await sleep(wait, signal);
  }

  spend(units: number): void {
    this.refill();
    this.tokens -= units;
  }

  throttled(): void {
    this.rate = Math.max(this.targetPerSecond / 64, this.rate / 2);
    this.tokens = Math.min(this.tokens, 0);
  }

  succeeded(): void {
    if (this.rate < this.targetPerSecond) this.rate = Math.min(this.targetPerSecond, this.rate * 1.1);
  }
}
