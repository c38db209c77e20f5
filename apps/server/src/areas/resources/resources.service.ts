import type { MetricsResourceType, metricsHistoryQuery, ResourceListQuery, resourceStats } from '@svc/contract';
import { AppError, notFound } from '@svc/platform';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { type Database, DEFAULT_ORG } from '../../platform/db/index.js';
import type { Caller } from '../../platform/http/principal.js';
import type { AreaDeps } from '../area.js';
import type { Actor, AuditArea } from '../audit/index.js';
import { toDto } from './resources.dto.js';
import { resourceId } from './resources.identity.js';
import type { MergeOverride, Resource } from './resources.model.js';
import { queryResources } from './resources.query.js';
import type { ResourcesStore, StoredOverride } from './resources.store.js';
import type { ResourceView } from './resources.view.js';

type HistoryQuery = z.infer<typeof metricsHistoryQuery>;
export interface HistoryResult {
  resourceType: MetricsResourceType;
  range: string;
  tier?: string;
  stepSeconds?: number;
  series: { metric: string; points: { t: number; avg: number; min: number; max: number }[] }[];
}
export type HistoryReader = (caller: Caller, q: HistoryQuery) => Promise<HistoryResult>;

export interface ResourcesServiceDeps {
  deps: AreaDeps;
  store: ResourcesStore;
  view: ResourceView;
  audit: AuditArea;
  history: HistoryReader;
}

function count(into: Record<string, number>, key: string): void {
  into[key] = (into[key] ?? 0) + 1;
}

export function createResourcesService({ deps, store, view, audit, history }: ResourcesServiceDeps) {
  let overrides: StoredOverride[] = [];
  const reload = async () => {
    overrides = await store.listOverrides(DEFAULT_ORG);
    view.invalidate();
  };

  function find(id: string): Resource {
    const r = view.get().byId.get(id);
    if (!r) throw notFound(`Resource ${id}`);
    return r;
  }

  /** A resource id, a member key (`source:sourceId`), or the id a member had on its own before a merge. */
  function findByAny(ref: string): { resource: Resource; member?: string } | undefined {
    const snap = view.get();
    const direct = snap.byId.get(ref);
    if (direct) return { resource: direct };
    for (const r of snap.all) {
      for (const m of r.members) {
        const o = snap.observations.get(m);
        if (m === ref || (o && resourceId(o.type, o.stableKey ?? m) === ref)) return { resource: r, member: m };
      }
    }
    return undefined;
  }

  async function write(actor: Actor, event: string, details: string, fn: (trx: Kysely<Database>) => Promise<void>) {
    await deps.db.db.transaction().execute(async (trx) => {
      await fn(trx);
      await audit.record(trx, actor, { event, success: true, details });
    });
    await reload();
  }

  const by = (actor: Actor) => ({ user: actor.user, at: deps.clock.now() });
  const result = (id: string) => ({
    resource: view.get().byId.has(id) ? toDto(view.get().byId.get(id)!) : null,
    overrides: overrides.map((o) => ({ kind: o.kind, a: o.a, b: o.b, reason: o.reason || undefined })),
  });

  return {
    overrides: (): readonly MergeOverride[] => overrides,
    load: reload,

    listResources(q: ResourceListQuery) {
      const snap = view.get();
      const r = queryResources(snap.all, q, snap.byName());
      return { ...r, data: r.data.map(toDto) };
    },

    getStats(): z.input<typeof resourceStats> {
      const snap = view.get();
      const byType: Record<string, number> = {};
      const byStatus: Record<string, number> = {};
      const bySource: Record<string, number> = {};
      let merged = 0;
      for (const r of snap.all) {
        count(byType, r.type);
        count(byStatus, r.status);
        for (const s of r.sources) count(bySource, s);
        if (r.members.length > 1) merged++;
      }
      return {
        total: snap.all.length,
        byType,
        byStatus,
        bySource,
        merged,
        health: {
          healthy: byStatus.online ?? 0,
          degraded: byStatus.warning ?? 0,
          down: byStatus.offline ?? 0,
          unknown: byStatus.unknown ?? 0,
        },
        overrides: {
          links: overrides.filter((o) => o.kind === 'link').length,
          exclusions: overrides.filter((o) => o.kind === 'exclude').length,
        },
        lastUpdate: snap.lastUpdate > 0 ? new Date(snap.lastUpdate).toISOString() : null,
      };
    },

    getResource: (id: string) => toDto(find(id)),

    getChildren(id: string) {
      find(id);
      const list = view.get().children.get(id) ?? [];
      return { data: list.map(toDto), meta: { total: list.length } };
    },

    async getResourceMetrics(caller: Caller, id: string) {
      const r = find(id);
      const t = r.metricsTarget;
      const h = t
        ? await history(caller, { resourceType: t.resourceType, resourceId: t.resourceId, range: '1h', maxPoints: 60 })
        : null;
      return {
        id: r.id,
        type: r.type,
        current: r.metrics ?? {},
        lastSeen: new Date(r.lastSeen).toISOString(),
        history: h && { resourceType: h.resourceType, range: h.range, series: h.series },
      };
    },

    async linkResources(actor: Actor, id: string, targetId: string, reason = '') {
      const r = find(id);
      const target = findByAny(targetId);
      if (!target) throw notFound(`Resource ${targetId} (targetId)`);
      if (target.resource.id === r.id) throw new AppError('conflict', `${targetId} is already part of ${id}.`);
      const a = r.members[0]!;
      const b = target.member ?? target.resource.members[0]!;
      await write(actor, 'resource_linked', `${id} + ${targetId}${reason ? `: ${reason}` : ''}`, async (trx) => {
        for (const x of r.members)
          for (const y of target.resource.members) await store.deleteOverride(trx, DEFAULT_ORG, 'exclude', x, y);
        await store.putOverride(trx, DEFAULT_ORG, { kind: 'link', a, b, reason }, by(actor));
      });
      return result(r.id);
    },

    async unlinkResources(actor: Actor, id: string, targetId: string, reason = '') {
      const r = find(id);
      const target = findByAny(targetId);
      if (!target || target.resource.id !== r.id || !target.member)
        throw new AppError('conflict', `${targetId} is not a member merged into ${id}; nothing to unlink.`);
      const rest = r.members.filter((m) => m !== target.member);
      await splitApart(actor, 'resource_unlinked', id, [target.member], rest, reason);
      return result(r.id);
    },

    async reportMerge(actor: Actor, id: string, sources: string[], notes = '') {
      const r = find(id);
      if (r.members.length < 2) throw new AppError('conflict', `Resource ${id} is not merged from several sources.`);
      const picked = r.members.filter((m) => sources.includes(m) || sources.includes(m.split(':')[0]!));
      if (picked.length === 0) {
        throw new AppError(
          'validation_failed',
          `sources ${sources.join(', ')} match no member of ${id}; it has ${r.members.join(', ')}.`,
          {
            issues: [
              {
                location: 'body',
                field: 'sources',
                message: `any of ${[...new Set([...r.sources, ...r.members])].join(', ')}`,
              },
            ],
          },
        );
      }
      await splitApart(actor, 'resource_merge_reported', id, picked, r.members, notes);
      return result(r.id);
    },
  };

  /** Drops links and records exclusions between every picked member and every other member listed. */
  async function splitApart(
    actor: Actor,
    event: string,
    id: string,
    picked: string[],
    others: string[],
    reason: string,
  ) {
    const pairs = picked.flatMap((x) => others.filter((y) => y !== x).map((y) => [x, y] as const));
    await write(actor, event, `${id}: ${picked.join(', ')} kept apart${reason ? `: ${reason}` : ''}`, async (trx) => {
      for (const [x, y] of pairs) {
        await store.deleteOverride(trx, DEFAULT_ORG, 'link', x, y);
        await store.putOverride(trx, DEFAULT_ORG, { kind: 'exclude', a: x, b: y, reason }, by(actor));
      }
    });
  }
}

export type ResourcesService = ReturnType<typeof createResourcesService>;
