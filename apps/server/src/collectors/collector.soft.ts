import { isApiError } from './api.errors.js';

/**
 * A call whose failure degrades the poll instead of failing it (one node, one guest agent).
 * Auth errors and aborts still fail the whole poll: they concern the instance, not the item.
 */
export async function soft<T>(p: Promise<T>, warnings: string[], label: string): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (isApiError(err) && (err.category === 'auth' || err.category === 'aborted')) throw err;
    if (!isApiError(err)) throw err;
    if (warnings.length < 50) warnings.push(`${label}: ${err.message}`);
    return undefined;
  }
}
