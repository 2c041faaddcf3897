/**
 * What DynamoDB's capacity units are, in a sentence a newcomer can act on: the tooltip of every
 * RCU and WCU the app shows, so the abbreviation is explained once, the same way everywhere.
 */
export const capacityUnitHelp = {
  RCU: 'Read capacity units, what DynamoDB counts reads in: one reads up to 4 KB with strong consistency, or 8 KB eventually consistent (the default). A provisioned table gets so many per second.',
  WCU: 'Write capacity units, what DynamoDB counts writes in: one writes up to 1 KB (a larger item takes one per KB). A provisioned table gets so many per second.',
} as const;

/** "RCU" or "WCU", explained in its tooltip (an abbreviation, as screen readers announce it). */
export function CapacityUnit({ unit }: { unit: keyof typeof capacityUnitHelp }) {
  return (
    <abbr className="capacity-unit" title={capacityUnitHelp[unit]}>
      {unit}
    </abbr>
  );
}
