export * from './limit.js';
export * from './loop-scheduler.js';
export * from './timers.js';
