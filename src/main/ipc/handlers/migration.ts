import { fixStatus, startFixPlan, startFixRun } from '../../migration/fix-service';
import {
  acknowledgeSetting,
  exportMigrationReport,
  listAcknowledgements,
  listMigrationScans,
  loadMigrationReport,
  startMigrationScan,
  withdrawAcknowledgement,
} from '../../migration/service';
import {
  dynamooseFileOf,
  ormModelOf,
  removeDynamooseFile,
  removeOrmModel,
  useDynamooseFile,
  useOrmModel,
} from '../../migration/model-service';
import type { HandlerTable } from '../dispatcher';

type MigrationChannel = Extract<keyof HandlerTable, `migration:${string}`>;

export const migrationHandlers: Pick<HandlerTable, MigrationChannel> = {
  'migration:scan': (input, ctx) => startMigrationScan(input, ctx),
  'migration:scans': (input, ctx) => listMigrationScans(input, ctx),
  'migration:report': ({ scanId }, ctx) => loadMigrationReport(scanId, ctx),
  'migration:export': (input, ctx) => exportMigrationReport(input, ctx),
  'migration:fixPlan': (input, ctx) => startFixPlan(input, ctx),
  'migration:fixRun': (input, ctx) => startFixRun(input, ctx),
  'migration:fixStatus': (input, ctx) => fixStatus(input, ctx),
  'migration:acknowledgements': (input, ctx) => listAcknowledgements(input, ctx),
  'migration:acknowledge': (input, ctx) => acknowledgeSetting(input, ctx),
  'migration:withdrawAcknowledgement': (input, ctx) => withdrawAcknowledgement(input, ctx),
  'migration:model': (input, ctx) => ormModelOf(input, ctx),
  'migration:useModel': (input, ctx) => useOrmModel(input, ctx),
  'migration:removeModel': (input, ctx) => removeOrmModel(input, ctx),
  'migration:dynamoose': (input, ctx) => dynamooseFileOf(input, ctx),
  'migration:useDynamoose': (input, ctx) => useDynamooseFile(input, ctx),
  'migration:removeDynamoose': (input, ctx) => removeDynamooseFile(input, ctx),
};
