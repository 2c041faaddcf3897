/**
 * What DynamoDB's capacity units are, in a sentence a newcomer can act on: the tooltip of every
 * RCU and WCU the app shows, so the abbreviation is explained once, the same way everywhere.
 */
export const capacityUnitHelp = {
  RCU: 'Read capacity units, what DynamoDB counts reads in: one reads up to 4 KB with strong consistency, or 8 KB eventually consistent (the default). A provisioned table gets so many per second.',
  WCU: 'Write capacity units, what DynamoDB counts writes in: one writes up to 1 KB (a larger item takes one per KB). A provisioned table gets so many per second.',
} as const;

import { Fragment, type ReactNode } from 'react';

/** "RCU" or "WCU", explained in its tooltip (an abbreviation, as screen readers announce it). */
export function CapacityUnit({ unit }: { unit: keyof typeof capacityUnitHelp }) {
  return (
    <abbr className="capacity-unit" title={capacityUnitHelp[unit]}>
      {unit}
    </abbr>
  );
}

/**
 * A line of text whose "RCU" and "WCU" words each become a CapacityUnit: for lines built as one
 * string (a progress line's numbers, a message from main), where the unit is not an element of
 * its own.
 */
export function withCapacityUnits(text: string): ReactNode {
  const parts = text.split(/\b(RCU|WCU)\b/);
  if (parts.length === 1) return text;
  return parts.map((part, at) =>
    at % 2 === 1 ? (
      <CapacityUnit key={at} unit={part as keyof typeof capacityUnitHelp} />
    ) : (
      <Fragment key={at}>{part}</Fragment>
    ),
  );
}
