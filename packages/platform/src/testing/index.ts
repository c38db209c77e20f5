export { createTestDatabase } from './pg.js';
