import type { SdkItem } from './sql-data';

/**
 * The hand-written reference of `npm run bench:sql`: the same questions written the way a person
 * chasing speed in JavaScript would, over columns built once from the fetched pages — typed arrays
 * of whole cents, strings as dictionary codes, a key column as codes into the other table. This
 * is the practical floor for the engine (issue #32): no boxing, no rows, no generic operators.
 * Building the columns is this side's load, as decoding is the engine's.
 */
export class Dict {
  private readonly codes = new Map<string, number>();
  readonly values: string[] = [];

  code(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.codes.set(value, code);
      this.values.push(value);
    }
    return code;
  }
}

/** Whole cents of a number with at most two places; NaN when the attribute is absent. */
const centsOf = (n: string | undefined): number => (n === undefined ? NaN : Math.round(Number(n) * 100));
const NONE = -1;

/** The one-table shape: users and their orders in one table, told apart by the sort key. */
export class OneTableColumns {
  private length = 0;
  private readonly kind: Uint8Array; // 1 user, 2 order
  private readonly user: Int32Array;
  /** The user code of each order, NONE on every other item: the `orders` view as a column. */
  private readonly orderUser: Int32Array;
  private readonly status: Int32Array;
  private readonly cents: Float64Array;
  private readonly users = new Dict();
  private readonly names = new Dict();
  private readonly statuses = new Dict();
  private nameOfUser = new Int32Array(1024).fill(NONE);

  constructor(capacity: number) {
    this.kind = new Uint8Array(capacity);
    this.user = new Int32Array(capacity);
    this.orderUser = new Int32Array(capacity);
    this.status = new Int32Array(capacity);
    this.cents = new Float64Array(capacity);
  }

  append(items: readonly SdkItem[]): void {
    for (const item of items) {
      const i = this.length++;
      const sk = item.SK?.S ?? '';
      const userId = item.userId?.S;
      this.user[i] = userId === undefined ? NONE : this.users.code(userId);
      this.status[i] = item.status?.S === undefined ? NONE : this.statuses.code(item.status.S);
      this.cents[i] = centsOf(item.amount?.N);
      this.orderUser[i] = NONE;
      if (sk.startsWith('ORDER#')) {
        this.kind[i] = 2;
        this.orderUser[i] = this.user[i]!;
      } else if (sk.startsWith('USER#')) {
        this.kind[i] = 1;
        const name = item.name?.S;
        if (name !== undefined && userId !== undefined) this.setName(this.user[i], this.names.code(name));
      }
    }
  }

  /** The typed arrays' bytes (the dictionaries hold each distinct string once on top). */
  bytes(): number {
    return arrayBytes(this.kind, this.user, this.orderUser, this.status, this.cents, this.nameOfUser);
  }

  private setName(user: number, name: number): void {
    if (user >= this.nameOfUser.length) {
      const grown = new Int32Array(Math.max(user + 1, this.nameOfUser.length * 2)).fill(NONE);
      grown.set(this.nameOfUser);
      this.nameOfUser = grown;
    }
    this.nameOfUser[user] = name;
  }

  joinGroup(): unknown[][] {
    return joinedGroups(this.length, this.orderUser, this.nameOfUser, this.cents, this.names);
  }

  groupByStatus(): unknown[][] {
    return groupCounts(this.length, this.status, this.cents, this.statuses);
  }

  topThree(): unknown[][] {
    return topThreePerGroup(this.length, this.orderUser, this.users.values.length, this.cents);
  }

  aboveOwnAverage(): unknown[][] {
    return aboveGroupAverage(this.length, this.orderUser, this.users.values.length, this.cents);
  }
}

/** The two-table shape: customers, and orders that name their customer. */
export class TwoTableColumns {
  private orders = 0;
  private readonly customers = new Dict();
  private readonly countries = new Dict();
  private readonly statuses = new Dict();
  private countryOfCustomer: Int32Array;
  private readonly customer: Int32Array;
  private readonly status: Int32Array;
  private readonly cents: Float64Array;

  constructor(customerCapacity: number, orderCapacity: number) {
    this.countryOfCustomer = new Int32Array(customerCapacity).fill(NONE);
    this.customer = new Int32Array(orderCapacity);
    this.status = new Int32Array(orderCapacity);
    this.cents = new Float64Array(orderCapacity);
  }

  bytes(): number {
    return arrayBytes(this.countryOfCustomer, this.customer, this.status, this.cents);
  }

  appendCustomers(items: readonly SdkItem[]): void {
    for (const item of items) {
      const code = this.customers.code(item.customerId!.S!);
      this.countryOfCustomer[code] =
        item.country?.S === undefined ? NONE : this.countries.code(item.country.S);
    }
  }

  appendOrders(items: readonly SdkItem[]): void {
    for (const item of items) {
      const i = this.orders++;
      const customerId = item.customerId?.S;
      this.customer[i] = customerId === undefined ? NONE : this.customers.code(customerId);
      this.status[i] = item.status?.S === undefined ? NONE : this.statuses.code(item.status.S);
      this.cents[i] = centsOf(item.total?.N);
    }
  }

  /** SUM(total) per customer country, for one status. */
  joinGroup(status: string): unknown[][] {
    const wanted = this.statuses.code(status);
    const countries = this.countries.values.length;
    const count = new Float64Array(countries);
    const sum = new Float64Array(countries);
    tallyJoinedWhere(
      this.orders,
      this.status,
      wanted,
      this.customer,
      this.countryOfCustomer,
      this.cents,
      count,
      sum,
    );
    return groupRows(count, sum, this.countries);
  }

  groupByStatus(): unknown[][] {
    return groupCounts(this.orders, this.status, this.cents, this.statuses);
  }

  topThree(): unknown[][] {
    return topThreePerGroup(this.orders, this.customer, this.customers.values.length, this.cents);
  }

  aboveOwnAverage(): unknown[][] {
    return aboveGroupAverage(this.orders, this.customer, this.customers.values.length, this.cents);
  }
}

const arrayBytes = (...arrays: ArrayBufferView[]): number => arrays.reduce((sum, a) => sum + a.byteLength, 0);

// Each hot loop is a function of its own with nothing after it, over typed arrays only, as a
// person chasing speed would write it: with the row-building after the loop in the same
// function, or a closure per shape for the group code, V8 threw the optimised loop away on every
// call (`--trace-deopt`: 30 deoptimisations in 30 rounds, session 22), and the floor stood above
// the floor.

/** COUNT(*) and SUM(cents) per group of the other table, through a code column into it. */
function joinedGroups(
  length: number,
  codes: Int32Array,
  groupOf: Int32Array,
  cents: Float64Array,
  dict: Dict,
): unknown[][] {
  const count = new Float64Array(dict.values.length);
  const sum = new Float64Array(dict.values.length);
  tallyJoined(length, codes, groupOf, cents, count, sum);
  return groupRows(count, sum, dict);
}

function tallyJoined(
  length: number,
  codes: Int32Array,
  groupOf: Int32Array,
  cents: Float64Array,
  count: Float64Array,
  sum: Float64Array,
): void {
  for (let i = 0; i < length; i++) {
    const code = codes[i]!;
    if (code === NONE) continue;
    const g = groupOf[code] ?? NONE;
    if (g === NONE) continue;
    count[g]! += 1;
    const c = cents[i]!;
    if (c === c) sum[g]! += c;
  }
}

/** tallyJoined for the rows whose `filter` code is `wanted`. */
function tallyJoinedWhere(
  length: number,
  filter: Int32Array,
  wanted: number,
  codes: Int32Array,
  groupOf: Int32Array,
  cents: Float64Array,
  count: Float64Array,
  sum: Float64Array,
): void {
  for (let i = 0; i < length; i++) {
    if (filter[i] !== wanted) continue;
    const code = codes[i]!;
    if (code === NONE) continue;
    const g = groupOf[code] ?? NONE;
    if (g === NONE) continue;
    count[g]! += 1;
    const c = cents[i]!;
    if (c === c) sum[g]! += c;
  }
}

function groupRows(count: Float64Array, sum: Float64Array, dict: Dict): unknown[][] {
  const rows: unknown[][] = [];
  for (let g = 0; g < count.length; g++)
    if (count[g]! > 0) rows.push([dict.values[g], count[g], sum[g]! / 100]);
  return rows;
}

/** COUNT(*) and SUM(cents) per code, NULL (absent) as its own group. */
function groupCounts(length: number, codes: Int32Array, cents: Float64Array, dict: Dict): unknown[][] {
  const groups = dict.values.length + 1; // the last is "absent"
  const count = new Float64Array(groups);
  const sum = new Float64Array(groups);
  const summed = new Uint8Array(groups);
  tallyGroups(length, codes, cents, count, sum, summed);
  const rows: unknown[][] = [];
  for (let g = 0; g < groups; g++)
    if (count[g]! > 0)
      rows.push([g === groups - 1 ? null : dict.values[g], count[g], summed[g] ? sum[g]! / 100 : null]);
  return rows;
}

function tallyGroups(
  length: number,
  codes: Int32Array,
  cents: Float64Array,
  count: Float64Array,
  sum: Float64Array,
  summed: Uint8Array,
): void {
  const absent = count.length - 1;
  for (let i = 0; i < length; i++) {
    const code = codes[i]!;
    const g = code === NONE ? absent : code;
    count[g]! += 1;
    const c = cents[i]!;
    if (c === c) {
      sum[g]! += c;
      summed[g] = 1;
    }
  }
}

/** COUNT and SUM of each group's three largest values (ROW_NUMBER() … <= 3). */
function topThreePerGroup(
  length: number,
  codes: Int32Array,
  groups: number,
  cents: Float64Array,
): unknown[][] {
  const top = new Float64Array(groups * 3).fill(-Infinity);
  keepTopThree(length, codes, cents, top);
  let count = 0;
  let sum = 0;
  for (let k = 0; k < top.length; k++) {
    const v = top[k]!;
    if (v === -Infinity) continue;
    count += 1;
    sum += v;
  }
  return [[count, sum / 100]];
}

function keepTopThree(length: number, codes: Int32Array, cents: Float64Array, top: Float64Array): void {
  for (let i = 0; i < length; i++) {
    const g = codes[i]!;
    if (g === NONE) continue;
    let v = cents[i]!;
    const at = g * 3;
    for (let k = 0; k < 3; k++) {
      if (v > top[at + k]!) {
        const out = top[at + k]!;
        top[at + k] = v;
        v = out;
      }
    }
  }
}

/** How many values are above their group's average: value × n > group sum, exact in cents. */
function aboveGroupAverage(
  length: number,
  codes: Int32Array,
  groups: number,
  cents: Float64Array,
): unknown[][] {
  const n = new Float64Array(groups);
  const sum = new Float64Array(groups);
  sumGroups(length, codes, cents, n, sum);
  return [[countAbove(length, codes, cents, n, sum)]];
}

function sumGroups(
  length: number,
  codes: Int32Array,
  cents: Float64Array,
  n: Float64Array,
  sum: Float64Array,
): void {
  for (let i = 0; i < length; i++) {
    const g = codes[i]!;
    if (g === NONE) continue;
    n[g]! += 1;
    sum[g]! += cents[i]!;
  }
}

function countAbove(
  length: number,
  codes: Int32Array,
  cents: Float64Array,
  n: Float64Array,
  sum: Float64Array,
): number {
  let count = 0;
  for (let i = 0; i < length; i++) {
    const g = codes[i]!;
    if (g !== NONE && cents[i]! * n[g]! > sum[g]!) count += 1;
  }
  return count;
}
