import type { ChannelKind } from '@svc/contract';
import type { Email } from './notifications.email.js';
import type { Notice } from './notifications.model.js';
import type { SendOutcome } from './notifications.outcome.js';
import type { Relay } from './notifications.relay.js';
import type { Webhooks } from './notifications.webhooks.js';

export interface ChannelTarget {
  id: string;
  name: string;
}

/** A kind of channel: which targets are enabled (fan-out) and how to deliver to one. */
export interface ChannelImpl {
  targets(): Promise<ChannelTarget[]>;
  /** Name for history and health; undefined when the target no longer exists. */
  name(id: string): Promise<string | undefined>;
  send(id: string, notices: readonly Notice[], signal?: AbortSignal): Promise<SendOutcome>;
}

export type ChannelRegistry = Record<ChannelKind, ChannelImpl>;

const gone = (what: string): SendOutcome => ({
  ok: false,
  status: 0,
  response: '',
  error: what,
  retryable: false,
  durationMs: 0,
});

export function createChannels(webhooks: Webhooks, email: Email, relay: Relay): ChannelRegistry {
  return {
    webhook: {
      targets: () => webhooks.enabled(),
      name: async (id) => (await webhooks.load(id))?.name,
      async send(id, notices, signal) {
        const c = await webhooks.load(id);
        if (!c) return gone('webhook no longer exists');
        if (!c.enabled) return gone('webhook is disabled');
        return webhooks.deliver(c, notices, signal);
      },
    },
    email: {
      targets: async () => ((await email.enabled()) ? [{ id: 'email', name: 'Email' }] : []),
      name: async () => 'Email',
      send: async (_id, notices) => ((await email.enabled()) ? email.send(notices) : gone('email is disabled')),
    },
    relay: {
      targets: async () => ((await relay.enabled()) ? [{ id: 'relay', name: 'Apprise relay' }] : []),
      name: async () => 'Apprise relay',
      send: async (_id, notices) => ((await relay.enabled()) ? relay.send(notices) : gone('relay is disabled')),
    },
  };
}
