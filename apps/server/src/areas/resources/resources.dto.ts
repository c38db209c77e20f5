import type { resourceSchema } from '@svc/contract';
import type { z } from 'zod';
import type { Resource } from './resources.model.js';

export type ResourceDto = z.input<typeof resourceSchema>;

/** The wire shape: ISO lastSeen, no internal fields (metrics target). */
export function toDto(r: Resource): ResourceDto {
  return {
    id: r.id,
    type: r.type,
    name: r.name,
    status: r.status,
    sources: r.sources,
    sourceStatus: r.sourceStatus,
    parentId: r.parentId,
    cluster: r.cluster,
    tags: r.tags,
    lastSeen: new Date(r.lastSeen).toISOString(),
    identity: r.identity,
    metrics: r.metrics ?? {},
    members: r.members,
  };
}
