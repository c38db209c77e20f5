import type { MetadataKind, metadataRoutes } from '@svc/contract';
import type { Handlers, RequestContext } from '@svc/platform';
import { DEFAULT_ORG } from '../../platform/db/index.js';
import type { Caller } from '../../platform/http/principal.js';
import { actorOf } from '../audit/index.js';
import type { MetadataService } from './metadata.service.js';

type Ctx = RequestContext<Caller>;
const org = (ctx: Ctx) => ctx.principal?.orgId ?? DEFAULT_ORG;

/** The same four adapters for every prefix; only the kind differs. */
function handlersFor(service: MetadataService, kind: MetadataKind, prefix: string) {
  return {
    list: (ctx: Ctx) => service.listMetadata(org(ctx), kind),
    get: (ctx: Ctx, { params }: { params: { id: string } }) => service.getMetadata(org(ctx), kind, params.id),
    put: (
      ctx: Ctx,
      { params, body }: { params: { id: string }; body: Parameters<MetadataService['putMetadata']>[4] },
    ) => service.putMetadata(org(ctx), actorOf(ctx, `${prefix}/${params.id}`), kind, params.id, body),
    delete: async (ctx: Ctx, { params }: { params: { id: string } }) => {
      await service.deleteMetadata(org(ctx), actorOf(ctx, `${prefix}/${params.id}`), kind, params.id);
      return undefined;
    },
  };
}

export function metadataHandlers(service: MetadataService): Handlers<typeof metadataRoutes, Caller> {
  const host = handlersFor(service, 'host', '/api/hosts/metadata');
  const guest = handlersFor(service, 'guest', '/api/guests/metadata');
  const ctr = handlersFor(service, 'ctr', '/api/ctr/metadata');
  const ctrHost = handlersFor(service, 'ctrHost', '/api/ctr/hosts/metadata');
  return {
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
  };
}
