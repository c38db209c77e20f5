export { describeSchema, type SchemaDescription } from './introspect.js';
export { type Migration, type MigrationResult, migrate } from './migrate.js';
export { type DatabaseHandle, type DatabaseTarget, type DialectName, openDatabase, redactUrl } from './open.js';
