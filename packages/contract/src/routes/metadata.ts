import { z } from 'zod';
import { defineRoute } from '../route.js';

/** The kinds of metadata, one per path prefix. */
export const metadataKinds = ['host', 'guest', 'ctr', 'ctrHost'] as const;
export type MetadataKind = (typeof metadataKinds)[number];

export const METADATA_NOTES_MAX = 10_000;

/** Only links a browser opens as a page: `javascript:`, `data:` and other schemes could run code. */
const webUrl = z
  .string()
  .max(2048)
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'url accepts only absolute http:// or https:// URLs');

export const customUrl = z.object({ name: z.string().min(1).max(200), url: webUrl });

export const metadataBody = z.object({
  notes: z.string().max(METADATA_NOTES_MAX, `notes accepts at most ${METADATA_NOTES_MAX} characters`).default(''),
  tags: z.array(z.string().trim().min(1).max(100)).max(100).default([]),
  customUrls: z.array(customUrl).max(50).default([]),
});

export const metadataRecord = z
  .object({
    id: z.string(),
    notes: z.string(),
    tags: z.array(z.string()),
    customUrls: z.array(customUrl),
    updatedAt: z.string().describe('ISO 8601'),
    updatedBy: z.string(),
  })
  .meta({ id: 'ResourceMetadata' });

export const metadataList = z
  .object({ data: z.array(metadataRecord), meta: z.object({ total: z.number().int() }) })
  .meta({ id: 'ResourceMetadataList' });

const itemParams = z.object({ id: z.string().min(1).max(256) });

const prefixes: Record<MetadataKind, { path: string; item: string; label: string }> = {
  host: { path: '/api/hosts/metadata', item: 'hostId', label: 'hosts' },
  guest: { path: '/api/guests/metadata', item: 'guestId', label: 'guests (VMs and LXC)' },
  ctr: { path: '/api/ctr/metadata', item: 'containerId', label: 'runtime containers' },
  ctrHost: { path: '/api/ctr/hosts/metadata', item: 'hostId', label: 'container-runtime hosts' },
};

/** The four routes of one prefix: list, get, put, delete. Read: monitoring:read; write: monitoring:write. */
function metadataRoutesFor<const K extends MetadataKind>(kind: K) {
  const p = prefixes[kind];
  const read = { access: 'auth', scopes: ['monitoring:read'], tag: 'Metadata' } as const;
  const write = { access: 'auth', scopes: ['monitoring:write'], tag: 'Metadata' } as const;
  const item = `${p.path}/{id}` as const;
  const note = `The item id is the ${p.item}: the unified resource id or the source's own id.`;
  return {
    list: defineRoute({
      method: 'GET',
      path: p.path,
      summary: `Notes, tags and links of ${p.label}`,
      ...read,
      response: metadataList,
    }),
    get: defineRoute({
      method: 'GET',
      path: item,
      summary: `Metadata of one of the ${p.label}`,
      description: note,
      ...read,
      params: itemParams,
      response: metadataRecord,
    }),
    put: defineRoute({
      method: 'PUT',
      path: item,
      summary: `Set the notes, tags and links of one of the ${p.label}`,
      description: `${note} Custom URLs must be http or https.`,
      ...write,
      params: itemParams,
      body: metadataBody,
      response: metadataRecord,
    }),
    delete: defineRoute({
      method: 'DELETE',
      path: item,
      summary: `Remove the metadata of one of the ${p.label}`,
      ...write,
      params: itemParams,
      responseKind: 'empty',
    }),
  };
}

const host = metadataRoutesFor('host');
const guest = metadataRoutesFor('guest');
const ctr = metadataRoutesFor('ctr');
const ctrHost = metadataRoutesFor('ctrHost');

export const metadataRoutes = {
  listHostMetadata: host.list,
  getHostMetadata: host.get,
  putHostMetadata: host.put,
  deleteHostMetadata: host.delete,
  listGuestMetadata: guest.list,
  getGuestMetadata: guest.get,
  putGuestMetadata: guest.put,
  deleteGuestMetadata: guest.delete,
  listCtrMetadata: ctr.list,
  getCtrMetadata: ctr.get,
  putCtrMetadata: ctr.put,
  deleteCtrMetadata: ctr.delete,
  listCtrHostMetadata: ctrHost.list,
  getCtrHostMetadata: ctrHost.get,
  putCtrHostMetadata: ctrHost.put,
  deleteCtrHostMetadata: ctrHost.delete,
} as const;
