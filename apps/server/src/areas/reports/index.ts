import type { AreaDeps } from '../area.js';
import type { HistoryReader } from '../resources/index.js';
import { reportsHandlers } from './reports.routes.js';
import { createReportsService } from './reports.service.js';

/** PDF and CSV metrics reports (licence feature advanced_reporting, enforced by the route table). */
export function createReportsArea(deps: AreaDeps, history: HistoryReader) {
  const service = createReportsService({ clock: deps.clock, history });
  return { service, handlers: reportsHandlers(service) };
}
