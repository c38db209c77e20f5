export * from './live-state.js';
export type { CollectionKey, CollectionRecords } from './state.collections.js';
export { collectionKeys } from './state.collections.js';
export type { StatePayload } from './state.payload.js';
