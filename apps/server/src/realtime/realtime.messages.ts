import type { StateDelta, StatePayload } from '../state/index.js';

/** Server→client message kinds; the same names are the socket.io event names. */
export type MessageType =
  | 'welcome'
  | 'initialState'
  | 'rawData'
  | 'pong'
  | 'custom'
  | 'test'
  | 'alert'
  | 'alertResolved'
  | 'settingsUpdate'
  | 'nodes_updated'
  | 'node_deleted'
  | 'node_auto_registered'
  | 'discovery_update';

/** Every message is `{type, data, timestamp}`; state messages also carry the state `seq` they bring a client to. */
export interface Envelope<T = unknown> {
  type: MessageType;
  data: T;
  /** Unix ms when the server sent (or, for deltas, flushed) the message. */
  timestamp: number;
  seq?: number;
}

export interface WelcomeData {
  message: string;
  orgId: string;
  /** How the connection authenticated: session, api_token or recovery_session. */
  authMethod: string;
}

/**
 * A coalesced state change: only resources that changed (whole records, latest wins), were added, or were
 * removed since `prevSeq`. Records are absolute, so applying a delta to a snapshot newer than `prevSeq` is safe.
 */
export interface DeltaData {
  prevSeq: number;
  lastUpdate: number;
  upserts: StateDelta['upserts'];
  removed: StateDelta['removed'];
  connectionHealth?: Record<string, boolean>;
}

export type InitialStateData = StatePayload;

/** A message serialised once: the same bytes go to every WebSocket client. */
export interface Frame {
  message: Envelope;
  bytes: Buffer;
}

export function frame(message: Envelope): Frame {
  return { message, bytes: Buffer.from(JSON.stringify(message)) };
}

/** Client→server messages, capped at 64 KiB like the reference. */
export const MAX_INBOUND_BYTES = 64 * 1024;

export type InboundMessage = { type: 'ping' } | { type: 'requestData' };

export function parseInbound(raw: string): InboundMessage | undefined {
  try {
    const m = JSON.parse(raw) as { type?: unknown };
    if (m && (m.type === 'ping' || m.type === 'requestData')) return { type: m.type };
  } catch {
    // Garbage from a client is ignored, never fatal to the connection.
  }
  return undefined;
}
