export * from './bind.js';
export * from './errors.js';
