import { conflict, type RequestContext } from '@svc/platform';
import { DEFAULT_ORG } from '../../platform/db/index.js';
import type { Caller } from '../../platform/http/principal.js';
import type { AreaDeps } from '../area.js';
import { type AuditArea, actorOf } from '../audit/index.js';
import { openBundle, parseBundle, sealBundle } from './nodes.bundle.js';
import type { NodeConfig, NodeRecord } from './nodes.model.js';
import type { NodeRuntime, NodesService } from './nodes.service.js';
import type { NodesStore } from './nodes.store.js';

type Ctx = RequestContext<Caller>;

/** Configuration export/import: nodes (with their secrets) and settings, in a passphrase-encrypted bundle. */
export function createTransferService(
  deps: AreaDeps,
  store: NodesStore,
  nodes: NodesService,
  audit: AuditArea,
  runtime: NodeRuntime,
) {
  return {
    async exportConfig(ctx: Ctx, passphrase: string) {
      const orgId = ctx.principal?.orgId ?? DEFAULT_ORG;
      const list = await nodes.exportNodes(orgId);
      const settings = await store.db
        .selectFrom('settings')
        .select(['key', 'value'])
        .where('org_id', '=', orgId)
        .execute();
      const bundle = {
        format: 'svc-config',
        version: 1,
        exportedAt: new Date(deps.clock.now()).toISOString(),
        nodes: list,
        settings,
      };
      const data = await sealBundle(JSON.stringify(bundle), passphrase);
      await store.db.transaction().execute((trx) =>
        audit.record(trx, actorOf(ctx, '/api/config/export'), {
          event: 'config_exported',
          success: true,
          details: `${list.length} nodes, ${settings.length} settings`,
        }),
      );
      return { status: 'success' as const, data };
    },

    /** All or nothing: the bundle is opened and checked before anything is touched, then replaced in one transaction. */
    async importConfig(ctx: Ctx, data: string, passphrase: string) {
      if (nodes.readOnlyReason()) throw conflict(nodes.readOnlyReason()!);
      const orgId = ctx.principal?.orgId ?? DEFAULT_ORG;
      const bundle = parseBundle(await openBundle(data, passphrase));
      const now = new Date(deps.clock.now()).toISOString();
      const records: NodeRecord[] = bundle.nodes.map((n) => ({
        ...n,
        config: n.config as unknown as NodeConfig,
        source: n.source,
        updatedAt: now,
      }));
      const before = await store.list(orgId);
      await store.db.transaction().execute(async (trx) => {
        await store.removeAll(orgId, trx);
        for (const r of records) await store.insert(nodes.toRow(orgId, r), trx);
        await trx.deleteFrom('settings').where('org_id', '=', orgId).execute();
        for (const s of bundle.settings) {
          await trx
            .insertInto('settings')
            .values({ org_id: orgId, key: s.key, value: s.value, updated_at: now })
            .execute();
        }
        await audit.record(trx, actorOf(ctx, '/api/config/import'), {
          event: 'config_imported',
          success: true,
          details: `${records.length} nodes, ${bundle.settings.length} settings (exported ${bundle.exportedAt})`,
        });
      });
      for (const row of before) await runtime.remove(row.id);
      await nodes.loadAll();
      return {
        status: 'success' as const,
        message: `Imported ${records.length} nodes and ${bundle.settings.length} settings.`,
        nodes: records.length,
      };
    },
  };
}
