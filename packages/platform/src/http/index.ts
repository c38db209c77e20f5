export * from './bind.js';
export * from './cookies.js';
export * from './errors.js';
