import {
  enableInsights,
  latestHealthReport,
  loadHealthReport,
  startHealthAnalysis,
} from '../../health/service';
import type { HandlerTable } from '../dispatcher';

type HealthChannel = Extract<keyof HandlerTable, `health:${string}`>;

export const healthHandlers: Pick<HandlerTable, HealthChannel> = {
  'health:analyze': (input, ctx) => startHealthAnalysis(input, ctx),
  'health:report': ({ reportId }, ctx) => Promise.resolve(loadHealthReport(reportId, ctx)),
  'health:latest': (input, ctx) => latestHealthReport(input, ctx),
  'health:enableInsights': (input, ctx) => enableInsights(input, ctx),
};
