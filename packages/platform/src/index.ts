export * from './clock.js';
export * from './db/index.js';
export * from './env.js';
export * from './errors.js';
export * from './http/index.js';
export * from './ids.js';
export * from './log.js';
export * from './serve.js';
