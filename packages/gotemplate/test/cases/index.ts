import { basics } from './basics.js';
import { control } from './control.js';
import { errors } from './errors.js';
import { funcs } from './funcs.js';
import { printf } from './printf.js';
import type { Case } from './types.js';
import { webhook } from './webhook.js';

export type { Case } from './types.js';

/** Every oracle case, in corpus order. */
export const allCases: Case[] = [...basics, ...control, ...printf, ...funcs, ...errors, ...webhook];
