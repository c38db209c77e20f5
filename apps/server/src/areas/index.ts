import type { Routes } from '@svc/contract';
import type { Handlers } from '@svc/platform';
import type { Caller } from '../platform/http/principal.js';
import type { AreaDeps } from './area.js';
import { createSystemArea } from './system/index.js';

export type { AreaDeps } from './area.js';

/** Every area, listed explicitly. The result must hold a handler for every route in the contract. */
export function createAreas(deps: AreaDeps) {
  const system = createSystemArea(deps);
  const handlers: Handlers<Routes, Caller> = {
    ...system.handlers,
  };
  return { handlers, system };
}
