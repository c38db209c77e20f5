import { isApiError } from './api.errors.js';

/**
 * A call whose failure degrades the poll instead of failing it (one node, one guest agent).
 * 401 and aborts still fail the whole poll; a 403 concerns one privilege (e.g. Sys.Audit), not the login.
 */
export async function soft<T>(p: Promise<T>, warnings: string[], label: string): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (isFatal(err)) throw err;
    if (!isApiError(err)) throw err;
    if (warnings.length < 50) warnings.push(`${label}: ${err.message}`);
    return undefined;
  }
}

/** Errors that concern the whole instance: unauthenticated (not merely forbidden), aborted, or not an API error. */
export const isFatal = (err: unknown): boolean =>
  !isApiError(err) || err.category === 'aborted' || (err.category === 'auth' && err.status !== 403);
