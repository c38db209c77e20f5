import type { NodeInput, NodeView } from '@svc/contract';
import { AppError } from '@svc/platform';
import type { ConnectionTest, InstanceConfig, ManagedInstance } from '../../collectors/index.js';
import type { NodeRow } from './nodes.store.js';

export type NodeType = NodeInput['type'];

/** The non-secret settings of a node, stored as JSON. */
export interface NodeConfig {
  host: string;
  user?: string;
  tokenName?: string;
  fingerprint?: string;
  verifySSL: boolean;
  enabled: boolean;
  pollIntervalSeconds?: number;
  monitorVMs: boolean;
  monitorContainers: boolean;
  monitorStorage: boolean;
  monitorBackups: boolean;
  monitorPhysicalDisks: boolean;
  isCluster: boolean;
  clusterName?: string;
  clusterEndpoints: NodeView['clusterEndpoints'];
}

export interface NodeSecrets {
  password?: string;
  tokenValue?: string;
}

export interface NodeRecord {
  id: string;
  type: NodeType;
  name: string;
  config: NodeConfig;
  secrets: NodeSecrets;
  source: NodeView['source'];
  createdAt: string;
  updatedAt: string;
}

const defaultPorts: Record<NodeType, number> = { hv: 8006, bak: 8007, mail: 8006 };

/** `10.0.0.5` → `https://10.0.0.5:8006`; keeps an explicit scheme and port. */
export function normalizeHost(host: string, type: NodeType): string {
  const u = new URL(/^[a-z]+:\/\//i.test(host) ? host : `https://${host}`);
  if (!u.port) u.port = String(defaultPorts[type]);
  return `${u.protocol}//${u.host}`;
}

/** A value of only `*`/`•`/`●` (as UIs show a stored secret) means "keep the one stored". */
export const isMaskedSecret = (v: string | undefined): boolean => v !== undefined && /^[*•●]{6,}$/.test(v);

/** Cross-field rules the schema cannot express; every message names the field and what it accepts. */
export function checkCredentials(type: NodeType, c: NodeConfig, s: NodeSecrets): void {
  const hasToken = Boolean(c.tokenName || s.tokenValue);
  if (type === 'mail' && hasToken) {
    throw new AppError('validation_failed', 'tokenName: the mail gateway has no API tokens; use user and password.', {
      issues: [{ location: 'body', field: 'tokenName', message: 'not supported for type mail' }],
    });
  }
  if (hasToken && !(c.tokenName && s.tokenValue)) {
    const field = c.tokenName ? 'tokenValue' : 'tokenName';
    throw new AppError('validation_failed', `${field}: an API token needs both tokenName and tokenValue.`, {
      issues: [{ location: 'body', field, message: 'required with the other token field' }],
    });
  }
  if (!hasToken && !(c.user && s.password)) {
    const field = c.user ? 'password' : 'user';
    throw new AppError(
      'validation_failed',
      `${field}: credentials are missing; give user and password, or tokenName and tokenValue.`,
      { issues: [{ location: 'body', field, message: 'missing credentials' }] },
    );
  }
}

export function configFromInput(input: NodeInput): NodeConfig {
  return {
    host: normalizeHost(input.host, input.type),
    user: input.user,
    tokenName: input.tokenName,
    fingerprint: input.fingerprint,
    verifySSL: input.verifySSL ?? true,
    enabled: input.enabled ?? true,
    pollIntervalSeconds: input.pollIntervalSeconds,
    monitorVMs: input.monitorVMs ?? true,
    monitorContainers: input.monitorContainers ?? true,
    monitorStorage: input.monitorStorage ?? true,
    monitorBackups: input.monitorBackups ?? true,
    monitorPhysicalDisks: input.monitorPhysicalDisks ?? true,
    isCluster: false,
    clusterEndpoints: [],
  };
}

export function toInstance(r: Pick<NodeRecord, 'id' | 'type' | 'name' | 'config' | 'secrets'>): InstanceConfig {
  const c = r.config;
  const credentials =
    c.tokenName && r.secrets.tokenValue
      ? { type: 'token' as const, tokenId: c.tokenName, secret: r.secrets.tokenValue }
      : { type: 'password' as const, username: c.user ?? '', password: r.secrets.password ?? '' };
  return {
    id: r.id,
    kind: r.type,
    name: r.name,
    host: c.host,
    credentials,
    verifyTls: c.verifySSL,
    fingerprint: c.fingerprint,
    enabled: c.enabled,
    intervalMs: c.pollIntervalSeconds ? c.pollIntervalSeconds * 1000 : undefined,
    endpoints: c.clusterEndpoints
      .filter((e) => e.host !== c.host)
      .map((e) => ({ name: e.name, host: e.host, fingerprint: c.fingerprint })),
    collect: { slowEvery: c.monitorBackups ? 10 : 0 },
  };
}

/** Cluster facts from a connection test, as stored on the node (members reached on the same port). */
export function clusterFrom(
  test: ConnectionTest,
  host: string,
): Pick<NodeConfig, 'isCluster' | 'clusterName' | 'clusterEndpoints'> {
  if (!test.cluster) return { isCluster: false, clusterName: undefined, clusterEndpoints: [] };
  const base = new URL(host);
  return {
    isCluster: true,
    clusterName: test.cluster.name,
    clusterEndpoints: test.cluster.members.map((m) => ({
      name: m.name,
      host: m.ip ? `${base.protocol}//${m.ip.includes(':') ? `[${m.ip}]` : m.ip}:${base.port}` : host,
      ip: m.ip,
      online: m.online,
    })),
  };
}

export function toView(r: NodeRecord, managed: ManagedInstance | undefined): NodeView {
  const c = r.config;
  let status: NodeView['status'] = 'unknown';
  let lastError: string | undefined;
  if (!c.enabled) status = 'disabled';
  else if (managed) {
    const s = managed.state;
    lastError = s.lastError?.message;
    if (s.deadLetter) status = 'dead-letter';
    else if (s.consecutiveFailures > 0) status = 'disconnected';
    else if (s.lastSuccess !== undefined) status = 'connected';
  }
  return {
    id: r.id,
    type: r.type,
    name: r.name,
    host: c.host,
    user: c.user,
    tokenName: c.tokenName,
    hasPassword: Boolean(r.secrets.password),
    hasToken: Boolean(r.secrets.tokenValue),
    fingerprint: c.fingerprint,
    verifySSL: c.verifySSL,
    enabled: c.enabled,
    pollIntervalSeconds: c.pollIntervalSeconds,
    monitorVMs: c.monitorVMs,
    monitorContainers: c.monitorContainers,
    monitorStorage: c.monitorStorage,
    monitorBackups: c.monitorBackups,
    monitorPhysicalDisks: c.monitorPhysicalDisks,
    status,
    lastError,
    isCluster: c.isCluster,
    clusterName: c.clusterName,
    clusterEndpoints: c.clusterEndpoints,
    source: r.source,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export function rowToRecord(row: NodeRow, secrets: NodeSecrets): NodeRecord {
  return {
    id: row.id,
    type: row.type as NodeType,
    name: row.name,
    config: JSON.parse(row.config) as NodeConfig,
    secrets,
    source: row.source as NodeRecord['source'],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
