import { useState } from 'react';
import type { ReadLimit } from '../../../../shared/ipc';
import { PARALLEL_READERS, SEGMENTS_HELP } from '../../../ui/scan-words';

type LimitKind = 'none' | 'items' | 'rcu' | 'share';

function limitOf(kind: LimitKind, value: number): ReadLimit | undefined {
  if (kind === 'items') return { itemsPerSecond: value };
  if (kind === 'rcu') return { readCapacityPerSecond: value };
  if (kind === 'share') return { shareOfProvisioned: Math.min(1, value / 100) };
  return undefined;
}

export interface ScanPacing {
  segments: number;
  setSegments(segments: number): void;
  kind: LimitKind;
  setKind(kind: LimitKind): void;
  value: number;
  setValue(value: number): void;
  limit: ReadLimit | undefined;
  isValid: boolean;
}

/** A full scan's parallel segments and read limit (a share of provisioned capacity where there is some). */
export function useScanPacing(isProvisioned = false): ScanPacing {
  const [segments, setSegments] = useState(4);
  const [kind, setKind] = useState<LimitKind>(isProvisioned ? 'share' : 'none');
  const [value, setValue] = useState(isProvisioned ? 25 : 500);
  const isValid =
    Number.isInteger(segments) && segments >= 1 && segments <= 64 && (kind === 'none' || value > 0);
  return {
    segments,
    setSegments,
    kind,
    setKind,
    value,
    setValue,
    limit: limitOf(kind, value),
    isValid,
  };
}

/** The fields of useScanPacing, shared by the pre-flight's and the Schema view's full scans. */
export function ScanPacingFields(props: { pacing: ScanPacing; isProvisioned?: boolean }) {
  const { pacing, isProvisioned = false } = props;
  return (
    <>
      <label className="mig-control" title={SEGMENTS_HELP}>
        <span className="field-label">{PARALLEL_READERS}</span>
        <input
          className="input"
          type="number"
          min={1}
          max={64}
          value={pacing.segments}
          onChange={(e) => pacing.setSegments(Number(e.target.value))}
        />
      </label>
      <label className="mig-control">
        <span className="field-label">Read limit</span>
        <select
          className="input"
          value={pacing.kind}
          onChange={(e) => pacing.setKind(e.target.value as LimitKind)}
        >
          <option value="none">No limit</option>
          <option value="items">Items per second</option>
          <option value="rcu">Read capacity units (RCU) per second</option>
          {isProvisioned ? <option value="share">% of provisioned read capacity</option> : null}
        </select>
      </label>
      {pacing.kind !== 'none' ? (
        <label className="mig-control">
          <span className="field-label">{pacing.kind === 'share' ? 'Percent' : 'Per second'}</span>
          <input
            className="input"
            type="number"
            min={1}
            value={pacing.value}
            onChange={(e) => pacing.setValue(Number(e.target.value))}
          />
        </label>
      ) : null}
    </>
  );
}
