import {
  DescribeExportCommand,
  DescribeTableCommand,
  ExportTableToPointInTimeCommand,
  UpdateContinuousBackupsCommand,
} from '@aws-sdk/client-dynamodb';
import { localClient } from '../dynamo-local';

/**
 * Exports a table as a user would outside DynoTable (point-in-time recovery on, then
 * ExportTableToPointInTime) through the test "AWS" endpoint, and waits until it is written.
 * Returns the export's ARN; throws with its status if it does not complete.
 */
export async function exportNow(
  endpoint: string,
  table: string,
  to: { bucket: string; prefix?: string; format?: 'ION' | 'DYNAMODB_JSON' },
): Promise<string> {
  const client = localClient(endpoint);
  try {
    await client.send(
      new UpdateContinuousBackupsCommand({
        TableName: table,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    );
    const arn = (await client.send(new DescribeTableCommand({ TableName: table }))).Table!.TableArn!;
    const begun = await client.send(
      new ExportTableToPointInTimeCommand({
        TableArn: arn,
        S3Bucket: to.bucket,
        ...(to.prefix ? { S3Prefix: to.prefix } : {}),
        ...(to.format ? { ExportFormat: to.format } : {}),
      }),
    );
    const exportArn = begun.ExportDescription!.ExportArn!;
    for (;;) {
      const d = await client.send(new DescribeExportCommand({ ExportArn: exportArn }));
      const status = d.ExportDescription?.ExportStatus;
      if (status === 'COMPLETED') return exportArn;
      if (status !== 'IN_PROGRESS') throw new Error(`the export of ${table} ended ${String(status)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    client.destroy();
  }
}
