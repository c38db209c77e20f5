import type { auditEvent } from '@svc/contract';
import { notFound, timeOrderedId } from '@svc/platform';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { type Database, DEFAULT_ORG } from '../../platform/db/index.js';
import type { AreaDeps } from '../area.js';
import { type SignedFields, sign, verify } from './audit.sign.js';
import type { AuditStore } from './audit.store.js';

/** Who did something, from where: built by route adapters from the request. */
export interface Actor {
  user: string;
  ip: string;
  path: string;
}

export interface AuditInput {
  event: string;
  success: boolean;
  details?: string;
}

const DAY_MS = 86_400_000;

export function createAuditService(deps: AreaDeps, store: AuditStore, key: Buffer) {
  let lastPurge = Number.NEGATIVE_INFINITY;

  function toFields(row: Database['audit_events']): SignedFields {
    return {
      id: row.id,
      timestamp: new Date(Number(row.timestamp)).toISOString(),
      event: row.event,
      user: row.username,
      ip: row.ip,
      path: row.path,
      success: row.success === 1,
      details: row.details,
    };
  }

  return {
    /** Writes one signed event inside the caller's transaction, so it commits or rolls back with the change. */
    async record(trx: Kysely<Database>, actor: Actor, input: AuditInput): Promise<void> {
      const now = deps.clock.now();
      const fields: SignedFields = {
        id: timeOrderedId(),
        timestamp: new Date(now).toISOString(),
        event: input.event,
        user: actor.user,
        ip: actor.ip,
        path: actor.path,
        success: input.success,
        details: input.details ?? '',
      };
      await store.insert(trx, {
        id: fields.id,
        org_id: DEFAULT_ORG,
        timestamp: now,
        event: fields.event,
        username: fields.user,
        ip: fields.ip,
        path: fields.path,
        success: fields.success ? 1 : 0,
        details: fields.details,
        signature: sign(key, fields),
      });
      // Retention runs at most daily, piggy-backed on writes, so no timer is needed.
      if (deps.config.auditRetentionDays > 0 && now - lastPurge >= DAY_MS) {
        lastPurge = now;
        await store.purgeBefore(trx, now - deps.config.auditRetentionDays * DAY_MS);
      }
    },

    async listEvents(q: {
      limit: number;
      event?: string;
      user?: string;
      success?: boolean;
      startTime?: string;
      endTime?: string;
    }): Promise<{ events: z.input<typeof auditEvent>[]; total: number; persistentLogging: boolean }> {
      const { rows, total } = await store.list({
        orgId: DEFAULT_ORG,
        limit: q.limit,
        event: q.event,
        user: q.user,
        success: q.success,
        start: q.startTime ? Date.parse(q.startTime) : undefined,
        end: q.endTime ? Date.parse(q.endTime) : undefined,
      });
      return { events: rows.map((r) => ({ ...toFields(r), signature: r.signature })), total, persistentLogging: true };
    },

    async verifyEvent(id: string): Promise<{ available: boolean; verified: boolean; message: string }> {
      const row = await store.find(DEFAULT_ORG, id);
      if (!row) throw notFound(`Audit event ${id}`);
      const ok = verify(key, toFields(row), row.signature);
      return {
        available: true,
        verified: ok,
        message: ok
          ? 'The signature matches: this event is as it was recorded.'
          : 'The signature does NOT match: this event was altered after it was recorded (or signed with another key).',
      };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
