import type { Connection } from '../../../../shared/ipc';
import {
  DYNAMODB_REGIONS,
  isSingleRegion,
  regionalConnectionId,
  splitConnectionId,
} from '../../../../shared/dynamo/regions';
import { useRegionListStore } from '../../tables/region-store';

export interface RegionChoiceProps {
  connection: Connection;
  /** The id the workbench works through: the connection's, or `<id>@<region>`. */
  workbenchId: string;
  onChange(workbenchId: string): void;
}

/**
 * Which region's tables SQL reads. The regions the table list shows come first, then every other
 * one; a connection with its own endpoint is one region and shows no choice.
 */
export function RegionChoice({ connection, workbenchId, onChange }: RegionChoiceProps) {
  const listed = useRegionListStore((state) => state.chosen[connection.id]);
  if (isSingleRegion(connection)) return null;
  const current = splitConnectionId(workbenchId).region ?? connection.region;
  const first = [...new Set([connection.region, ...(listed ?? []), current])];
  const rest = DYNAMODB_REGIONS.filter((region) => !first.includes(region));
  const option = (region: string) => (
    <option key={region} value={region}>
      {region === connection.region ? `${region} (this connection)` : region}
    </option>
  );
  return (
    <label className="sql-region">
      <span>Region</span>
      <select
        value={current}
        title="The region whose tables SQL lists and reads"
        onChange={(event) => {
          const region = event.target.value;
          onChange(
            region === connection.region ? connection.id : regionalConnectionId(connection.id, region),
          );
        }}
      >
        {rest.length > 0 ? (
          <>
            <optgroup label="Listed in Tables">{first.map(option)}</optgroup>
            <optgroup label="Other regions">{rest.map(option)}</optgroup>
          </>
        ) : (
          first.map(option)
        )}
      </select>
    </label>
  );
}
