type Listener = () => void;

/** The listeners of each signal, registered with it once. */
const fanouts = new WeakMap<AbortSignal, Set<Listener>>();

/**
 * Calls `listener` once when `signal` aborts; returns the function that unsubscribes it. However many
 * requests watch one signal (a poll shares one across thousands of requests, a delivery window across a
 * hundred), the signal itself holds one listener: EventTarget listeners cost more to add and remove with
 * each one already there, a Set entry does not.
 */
export function onAbort(signal: AbortSignal, listener: Listener): () => void {
  let set = fanouts.get(signal);
  if (!set) {
    const members = new Set<Listener>();
    set = members;
    fanouts.set(signal, members);
    signal.addEventListener(
      'abort',
      () => {
        for (const m of members) m();
        members.clear();
      },
      { once: true },
    );
  }
  set.add(listener);
  const registered = set;
  return () => void registered.delete(listener);
}
