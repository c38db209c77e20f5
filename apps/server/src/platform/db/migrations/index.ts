import type { Migration } from '@svc/platform';
import { m001Settings } from './001-settings.js';

/** In order; append only. */
export const migrations: readonly Migration[] = [m001Settings];
