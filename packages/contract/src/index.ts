export * from './access.js';
export * from './common.js';
export * from './openapi.js';
export * from './route.js';
export * from './routes/index.js';
export * from './routes/system.js';
export * from './routes/resources.js';
