import type { AreaDeps } from '../area.js';
import type { HistoryReader } from '../resources/index.js';
import { createBackupLists } from './charts.backups.js';
import { chartsHandlers } from './charts.routes.js';
import { createChartsService } from './charts.service.js';

/** Charts (from the metrics store) and storage, backup and snapshot lists (from the live state). */
export function createChartsArea(deps: AreaDeps, history: HistoryReader) {
  const charts = createChartsService({ state: deps.state, clock: deps.clock, history });
  const lists = createBackupLists(deps.state);
  return { charts, lists, handlers: chartsHandlers(charts, lists) };
}
