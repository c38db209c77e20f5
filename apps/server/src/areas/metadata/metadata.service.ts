import type { MetadataKind, metadataBody, metadataList, metadataRecord } from '@svc/contract';
import { notFound } from '@svc/platform';
import type { z } from 'zod';
import { DEFAULT_ORG } from '../../platform/db/index.js';
import type { AreaDeps } from '../area.js';
import type { Actor, AuditArea } from '../audit/index.js';
import type { MetadataRow, MetadataStore } from './metadata.store.js';

export type MetadataInput = z.infer<typeof metadataBody>;
type MetadataView = z.input<typeof metadataRecord>;

const labels: Record<MetadataKind, string> = {
  host: 'Host metadata',
  guest: 'Guest metadata',
  ctr: 'Container metadata',
  ctrHost: 'Container host metadata',
};

function view(r: MetadataRow): MetadataView {
  return {
    id: r.item_id,
    notes: r.notes,
    tags: JSON.parse(r.tags) as string[],
    customUrls: JSON.parse(r.custom_urls) as MetadataView['customUrls'],
    updatedAt: new Date(Number(r.updated_at)).toISOString(),
    updatedBy: r.updated_by,
  };
}

/**
 * Operator notes, tags and links per item. Tags are also kept in memory (default organization) so the
 * resources view can filter on them without a query per request; listeners hear about every change.
 */
export function createMetadataService(deps: AreaDeps, store: MetadataStore, audit: AuditArea) {
  const tags = new Map<string, string[]>();
  const listeners = new Set<() => void>();
  const tagKey = (kind: string, id: string) => `${kind}\u0000${id}`;
  const changed = () => {
    for (const l of listeners) l();
  };

  return {
    async load(): Promise<void> {
      tags.clear();
      for (const r of await store.all(DEFAULT_ORG)) tags.set(tagKey(r.kind, r.item_id), JSON.parse(r.tags));
      changed();
    },
    tagsFor(kind: MetadataKind, id: string): readonly string[] | undefined {
      return tags.get(tagKey(kind, id));
    },
    onChange(fn: () => void): () => void {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },

    async listMetadata(orgId: string, kind: MetadataKind): Promise<z.input<typeof metadataList>> {
      const rows = await store.list(orgId, kind);
      return { data: rows.map(view), meta: { total: rows.length } };
    },

    async getMetadata(orgId: string, kind: MetadataKind, id: string): Promise<MetadataView> {
      const row = await store.get(orgId, kind, id);
      if (!row) throw notFound(`${labels[kind]} for ${id}`);
      return view(row);
    },

    async putMetadata(orgId: string, actor: Actor, kind: MetadataKind, id: string, input: MetadataInput) {
      const cleanTags = [...new Set(input.tags)];
      const row: MetadataRow = {
        org_id: orgId,
        kind,
        item_id: id,
        notes: input.notes,
        tags: JSON.stringify(cleanTags),
        custom_urls: JSON.stringify(input.customUrls),
        updated_by: actor.user,
        updated_at: deps.clock.now(),
      };
      await deps.db.db.transaction().execute(async (trx) => {
        await store.upsert(trx, row);
        await audit.record(trx, actor, {
          event: 'resource_metadata_updated',
          success: true,
          details: `${kind} ${id}: ${cleanTags.length} tags, ${input.customUrls.length} links, ${input.notes.length} characters of notes`,
        });
      });
      if (orgId === DEFAULT_ORG) {
        tags.set(tagKey(kind, id), cleanTags);
        changed();
      }
      return view(row);
    },

    async deleteMetadata(orgId: string, actor: Actor, kind: MetadataKind, id: string): Promise<void> {
      await deps.db.db.transaction().execute(async (trx) => {
        if (!(await store.delete(trx, orgId, kind, id))) throw notFound(`${labels[kind]} for ${id}`);
        await audit.record(trx, actor, { event: 'resource_metadata_deleted', success: true, details: `${kind} ${id}` });
      });
      if (orgId === DEFAULT_ORG) {
        tags.delete(tagKey(kind, id));
        changed();
      }
    },
  };
}

export type MetadataService = ReturnType<typeof createMetadataService>;
