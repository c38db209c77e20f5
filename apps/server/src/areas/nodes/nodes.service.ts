import type { NodeInput, NodeUpdate, NodeView } from '@svc/contract';
import { AppError, conflict, notFound, type RequestContext } from '@svc/platform';
import type { ConnectionTest, InstanceConfig, ManagedInstance } from '../../collectors/index.js';
import { categorize } from '../../collectors/index.js';
import { randomHex } from '../../platform/crypto/index.js';
import { DEFAULT_ORG } from '../../platform/db/index.js';
import type { Caller } from '../../platform/http/principal.js';
import type { AreaDeps } from '../area.js';
import { type AuditArea, actorOf } from '../audit/index.js';
import {
  checkCredentials,
  clusterFrom,
  configFromInput,
  isMaskedSecret,
  type NodeRecord,
  type NodeSecrets,
  normalizeHost,
  rowToRecord,
  toInstance,
  toView,
} from './nodes.model.js';
import type { NodeRow, NodesStore } from './nodes.store.js';

/** What the nodes area needs of the poll scheduler (the PollManager provides it). */
export interface NodeRuntime {
  upsert(cfg: InstanceConfig): void;
  remove(id: string): Promise<void>;
  test(cfg: InstanceConfig, signal?: AbortSignal): Promise<ConnectionTest>;
  get(id: string): ManagedInstance | undefined;
}

const TEST_TIMEOUT_MS = 15_000;
type Ctx = RequestContext<Caller>;
const orgOf = (ctx: Ctx) => ctx.principal?.orgId ?? DEFAULT_ORG;

export function createNodesService(deps: AreaDeps, store: NodesStore, audit: AuditArea, runtime: NodeRuntime) {
  const seal = (id: string, s: NodeSecrets) => deps.secrets.seal(JSON.stringify(s), `node:${id}`);
  const unseal = (row: NodeRow): NodeSecrets => JSON.parse(deps.secrets.open(row.secrets, `node:${row.id}`));
  const toRecord = (row: NodeRow) => rowToRecord(row, unseal(row));
  const toRow = (orgId: string, r: NodeRecord): NodeRow => ({
    org_id: orgId,
    id: r.id,
    type: r.type,
    name: r.name,
    config: JSON.stringify(r.config),
    secrets: seal(r.id, r.secrets),
    source: r.source,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  });

  async function load(orgId: string, id: string): Promise<NodeRecord> {
    const row = await store.get(orgId, id);
    if (!row) throw notFound(`Node ${id}`);
    return toRecord(row);
  }

  /** Connects once; never throws for connection problems, it reports them. */
  async function probe(r: Pick<NodeRecord, 'id' | 'type' | 'name' | 'config' | 'secrets'>) {
    try {
      const test = await runtime.test(toInstance(r), AbortSignal.timeout(TEST_TIMEOUT_MS));
      return { ok: true as const, test };
    } catch (err) {
      const category = categorize(err);
      const why = err instanceof Error ? err.message : String(err);
      return {
        ok: false as const,
        message: `${category === 'auth' ? 'Authentication failed' : 'Could not connect'}: ${why}`,
      };
    }
  }

  async function save(
    ctx: Ctx,
    r: NodeRecord,
    event: string,
    isNew: boolean,
    path: string,
    orgId = orgOf(ctx),
  ): Promise<NodeView> {
    await store.db.transaction().execute(async (trx) => {
      if (await store.nameTaken(orgId, r.name, r.id, trx)) {
        throw conflict(`A node named ${r.name} already exists; choose another name.`);
      }
      await (isNew ? store.insert(toRow(orgId, r), trx) : store.update(toRow(orgId, r), trx));
      await audit.record(trx, actorOf(ctx, path), {
        event,
        success: true,
        details: `${r.type} node ${r.name} (${r.id}) at ${r.config.host}`,
      });
    });
    runtime.upsert(toInstance(r));
    return toView(r, runtime.get(r.id));
  }

  let readOnly: string | undefined;
  const writable = () => {
    if (readOnly) throw conflict(readOnly);
  };

  return {
    setReadOnly(why: string | undefined) {
      readOnly = why;
    },

    readOnlyReason: (): string | undefined => readOnly,

    async unloadAll(): Promise<void> {
      for (const row of await store.listAll()) await runtime.remove(row.id);
    },

    async loadAll(): Promise<number> {
      const rows = await store.listAll();
      for (const row of rows) runtime.upsert(toInstance(toRecord(row)));
      return rows.length;
    },

    async listNodes(ctx: Ctx): Promise<NodeView[]> {
      const rows = await store.list(orgOf(ctx));
      return rows.map((row) => toView(toRecord(row), runtime.get(row.id)));
    },

    async addNode(ctx: Ctx, input: NodeInput): Promise<NodeView> {
      return this.registerFromScript(orgOf(ctx), input, ctx, 'manual');
    },

    /** Adds a node for an organization; also the path of auto-registration (no principal, source script). */
    async registerFromScript(
      orgId: string,
      input: NodeInput,
      ctx: Ctx,
      source: NodeRecord['source'] = 'script',
    ): Promise<NodeView> {
      writable();
      const now = new Date(deps.clock.now()).toISOString();
      const r: NodeRecord = {
        id: `${input.type}-${randomHex(4)}`,
        type: input.type,
        name: input.name,
        config: configFromInput(input),
        secrets: { password: input.password, tokenValue: input.tokenValue },
        source,
        createdAt: now,
        updatedAt: now,
      };
      checkCredentials(r.type, r.config, r.secrets);
      if (await store.nameTaken(orgId, r.name, undefined)) {
        throw conflict(`A node named ${r.name} already exists; choose another name.`);
      }
      if (r.type === 'hv' && r.config.enabled) {
        const p = await probe(r);
        if (p.ok) Object.assign(r.config, clusterFrom(p.test, r.config.host));
      }
      return save(ctx, r, 'node_added', true, source === 'script' ? '/api/auto-register' : '/api/config/nodes', orgId);
    },

    async updateNode(ctx: Ctx, id: string, patch: NodeUpdate): Promise<NodeView> {
      writable();
      const r = await load(orgOf(ctx), id);
      if (patch.type && patch.type !== r.type) {
        throw new AppError('validation_failed', 'type: the type of a node cannot change; add a new node instead.', {
          issues: [{ location: 'body', field: 'type', message: 'cannot change' }],
        });
      }
      const { password, tokenValue, type: _t, name, host, ...rest } = patch;
      Object.assign(r.config, Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)));
      if (host) r.config.host = normalizeHost(host, r.type);
      if (name) r.name = name;
      if (password !== undefined && !isMaskedSecret(password)) r.secrets.password = password;
      if (tokenValue !== undefined && !isMaskedSecret(tokenValue)) r.secrets.tokenValue = tokenValue;
      if (patch.user && !patch.tokenName && password !== undefined) {
        r.config.tokenName = undefined;
        r.secrets.tokenValue = undefined;
      }
      checkCredentials(r.type, r.config, r.secrets);
      r.updatedAt = new Date(deps.clock.now()).toISOString();
      return save(ctx, r, 'node_updated', false, `/api/config/nodes/${id}`);
    },

    async deleteNode(ctx: Ctx, id: string): Promise<void> {
      writable();
      const orgId = orgOf(ctx);
      const r = await load(orgId, id);
      await store.db.transaction().execute(async (trx) => {
        await store.remove(orgId, id, trx);
        await audit.record(trx, actorOf(ctx, `/api/config/nodes/${id}`), {
          event: 'node_deleted',
          success: true,
          details: `${r.type} node ${r.name} (${id})`,
        });
      });
      await runtime.remove(id);
    },

    async testConnection(input: NodeInput) {
      const r = { id: 'test', type: input.type, name: input.name, config: configFromInput(input), secrets: input };
      checkCredentials(r.type, r.config, r.secrets);
      return report(r.type, await probe(r), r.config.host);
    },

    testConfig(input: NodeInput): { valid: boolean; warnings: string[] } {
      const config = configFromInput(input);
      checkCredentials(input.type, config, input);
      const warnings: string[] = [];
      if (!config.verifySSL && !config.fingerprint) {
        warnings.push('TLS verification is off and no fingerprint is pinned: the connection can be intercepted.');
      }
      if (config.host.startsWith('http:'))
        warnings.push('The host uses plain http: credentials cross the network unencrypted.');
      if (config.user && input.password && input.tokenName)
        warnings.push('Both a password and a token are set: the token is used.');
      return { valid: true, warnings };
    },

    async testSaved(ctx: Ctx, id: string) {
      const r = await load(orgOf(ctx), id);
      return report(r.type, await probe(r), r.config.host);
    },

    async refreshCluster(ctx: Ctx, id: string): Promise<NodeView> {
      const r = await load(orgOf(ctx), id);
      if (r.type !== 'hv') throw new AppError('bad_request', 'Only hv nodes form clusters.');
      const p = await probe(r);
      if (!p.ok) throw new AppError('bad_request', `The cluster could not be read: ${p.message}`);
      Object.assign(r.config, clusterFrom(p.test, r.config.host));
      r.updatedAt = new Date(deps.clock.now()).toISOString();
      return save(ctx, r, 'node_cluster_refreshed', false, `/api/config/nodes/${id}/refresh-cluster`);
    },

    /** For export: every node of the organization with its secrets, in the clear (the bundle is encrypted). */
    async exportNodes(orgId: string): Promise<NodeRecord[]> {
      return (await store.list(orgId)).map(toRecord);
    },

    toRow,
  };
}

function report(
  type: NodeInput['type'],
  p: { ok: true; test: ConnectionTest } | { ok: false; message: string },
  host: string,
) {
  if (!p.ok) return { success: false, message: p.message, type };
  const cluster = clusterFrom(p.test, host);
  return {
    success: true,
    message: `Connected to ${type} ${p.test.version}${cluster.isCluster ? ` (cluster ${cluster.clusterName})` : ''}.`,
    type,
    version: p.test.version,
    ...cluster,
  };
}

export type NodesService = ReturnType<typeof createNodesService>;
