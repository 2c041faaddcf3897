// An epoch-looking number is taken for a date only under a name that says it holds a point in
// time: a price of 1,700,000,000 is not a timestamp. The pre-flight's findings and the Schema
// view's generated models follow this one rule.

const CAMEL = /[a-z0-9](?:At|Date|Time|Timestamp|On)$/;
const SNAKE = /(?:^|[_-])(?:at|date|time|timestamp|ts|on)$/i;
const WHOLE = /^(?:date|time|timestamp|ts|created|updated|modified|deleted|expires|expiry|ttl|when)$/i;

/** createdAt, updated_at, birthDate, startTime, createdOn, timestamp, ttl, … */
export function isTimeName(name: string): boolean {
  return CAMEL.test(name) || SNAKE.test(name) || WHOLE.test(name);
}
