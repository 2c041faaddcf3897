/** What all the reads of one statement may spend together: items kept and RCU consumed. */
export interface ReadBudgetLimits {
  items: number;
  capacity: number;
}

/**
 * One allowance shared by a statement's fetches, which run concurrently: a per-fetch limit
 * would let a JOIN of two tables read twice what the caller allowed. Items are a hard bound
 * (a page is cut to what is left); capacity is what DynamoDB reports after each page, so a
 * fetch stops at the first page that uses it up and may pass it by that page (at most 1 MB,
 * 128 RCU, per fetch or Scan segment in flight).
 */
export class ReadBudget {
  private items: number;
  private capacity: number;

  constructor(limits: ReadBudgetLimits) {
    this.items = limits.items;
    this.capacity = limits.capacity;
  }

  /** Items a page may still keep. */
  room(): number {
    return Math.max(0, this.items);
  }

  spend(items: number, capacity: number): void {
    this.items -= items;
    this.capacity -= capacity;
  }

  isSpent(): boolean {
    return this.items <= 0 || this.capacity <= 0;
  }
}
