import { Fragment, type ReactNode } from 'react';
import { isDynamoLocal } from '../../../../shared/dynamo/table-change';
import type { TableSummary } from '../../../../shared/ipc';
import { billingLabel, formatBytes, formatCount, formatDate } from '../../../ui/format';
import { KeyAttribute } from '../../tables/components/key-label';
import { streamLabel } from '../../tables/components/table-row';
import { CapacityUnit } from '../../../ui/capacity-unit';

/**
 * An ARN that may break after each ":" and "/": a long one wraps between its parts, the table's
 * name whole on the last line ("…:table/DynoTableSamp" then "le" at 1024 px, where any character
 * was a break).
 */
function ArnText({ arn }: { arn: string }) {
  const parts = arn.split(/(?<=[:/])/);
  return parts.map((part, at) => (
    <Fragment key={at}>
      {part}
      {at < parts.length - 1 ? <wbr /> : null}
    </Fragment>
  ));
}

function Item({ term, children, title }: { term: string; children: ReactNode; title?: string }) {
  return (
    <div className="definition" title={title}>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function ttlLabel(ttl: TableSummary['ttl']): string {
  if (ttl.status === 'ENABLED') return ttl.attribute ? `On · ${ttl.attribute}` : 'On';
  if (ttl.status === 'DISABLED') return 'Off';
  // ENABLING / DISABLING take up to an hour on AWS: say so rather than pretend.
  return ttl.status.toLowerCase();
}

function OnOff({ isOn, children }: { isOn: boolean; children?: ReactNode }) {
  return <span className={isOn ? 'state-on' : 'state-off'}>{children ?? (isOn ? 'On' : 'Off')}</span>;
}

export function SettingsGrid({ summary }: { summary: TableSummary }) {
  const ttlOn = summary.ttl.status === 'ENABLED' || summary.ttl.status === 'ENABLING';
  const approximate = 'Approximate: DynamoDB refreshes it about every six hours';
  return (
    <div className="settings-grid">
      <section className="panel" aria-label="Keys">
        <h2 className="panel-title">Primary key</h2>
        <dl className="definitions">
          <Item term="Partition key">
            <KeyAttribute attribute={summary.keys.partitionKey} />
          </Item>
          <Item term="Sort key">
            <KeyAttribute attribute={summary.keys.sortKey} />
          </Item>
        </dl>
      </section>
      <section className="panel" aria-label="Capacity and size">
        <h2 className="panel-title">Capacity and size</h2>
        <dl className="definitions">
          <Item term="Billing">{billingLabel(summary.billingMode)}</Item>
          {summary.billingMode === 'PROVISIONED' ? (
            <Item term="Read / write">
              {summary.readCapacity ?? '?'} <CapacityUnit unit="RCU" /> · {summary.writeCapacity ?? '?'}{' '}
              <CapacityUnit unit="WCU" />
            </Item>
          ) : null}
          <Item term="Items" title={approximate}>
            ≈ {formatCount(summary.itemCount)}
          </Item>
          <Item term="Size" title={approximate}>
            ≈ {formatBytes(summary.sizeBytes)}
          </Item>
          <Item term="Table class">{summary.tableClass ?? 'Standard'}</Item>
        </dl>
      </section>
      <section className="panel" aria-label="Settings">
        <h2 className="panel-title">Settings</h2>
        <dl className="definitions">
          <Item term="Time to live">
            <OnOff isOn={ttlOn}>{ttlLabel(summary.ttl)}</OnOff>
          </Item>
          <Item term="Streams">
            <OnOff isOn={summary.stream.enabled}>
              {summary.stream.enabled ? streamLabel(summary.stream.viewType ?? 'on') : 'Off'}
            </OnOff>
          </Item>
          <Item term="Point-in-time recovery">
            {summary.pointInTimeRecovery === 'UNKNOWN' ? (
              <span className="muted">
                {isDynamoLocal(summary) ? 'Not on DynamoDB Local' : 'Could not be read'}
              </span>
            ) : (
              <OnOff isOn={summary.pointInTimeRecovery === 'ENABLED'} />
            )}
          </Item>
          <Item term="Deletion protection">
            <OnOff isOn={summary.deletionProtection} />
          </Item>
        </dl>
      </section>
      <section className="panel" aria-label="Identity">
        <h2 className="panel-title">Identity</h2>
        <dl className="definitions">
          <Item term="Created">{formatDate(summary.createdAt)}</Item>
          <Item term="ARN">
            <span className="mono wrap-anywhere">{summary.arn ? <ArnText arn={summary.arn} /> : '—'}</span>
          </Item>
        </dl>
      </section>
    </div>
  );
}
