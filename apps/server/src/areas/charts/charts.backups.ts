import type {
  backupsResponse,
  bakBackupsResponse,
  hvBackupsResponse,
  snapshotsResponse,
  storageListResponse,
  unifiedBackupsResponse,
} from '@svc/contract';
import type { z } from 'zod';
import type { LiveState } from '../../state/index.js';

type Unified = z.input<typeof unifiedBackupsResponse>['data'][number];

/** Backup-server times are Unix seconds; everything svc returns is milliseconds. */
const seconds = (t: number) => (t < 1e12 ? t * 1000 : t);

/** Storage, backup and snapshot lists straight from the live state (no store: the collectors own them). */
export function createBackupLists(state: LiveState) {
  function hv(): z.input<typeof hvBackupsResponse> {
    const backupTasks = state.get('backupTasks');
    const storageBackups = state.get('storageBackups');
    const guestSnapshots = state.get('guestSnapshots');
    return {
      data: { backupTasks, storageBackups, guestSnapshots },
      meta: {
        totalBackupTasks: backupTasks.length,
        totalStorageBackups: storageBackups.length,
        totalGuestSnapshots: guestSnapshots.length,
      },
    };
  }

  return {
    listStorage(): z.input<typeof storageListResponse> {
      const data = state.get('storage');
      const nodes: Record<string, { pools: number; total: number; used: number; avail: number }> = {};
      for (const s of data) {
        const n = nodes[s.node] ?? { pools: 0, total: 0, used: 0, avail: 0 };
        nodes[s.node] = n;
        n.pools++;
        n.total += s.total;
        n.used += s.used;
        n.avail += s.avail;
      }
      return { data, nodes, meta: { total: data.length } };
    },

    listHvBackups: hv,

    listBakBackups(): z.input<typeof bakBackupsResponse> {
      const backups = state.get('pbsBackups');
      return { data: { backups }, meta: { totalBackups: backups.length } };
    },

    listBackups(): z.input<typeof backupsResponse> {
      const h = hv();
      const bak = state.get('pbsBackups');
      const mail = state.get('pmgBackups');
      return {
        data: { hv: h.data, bak, mail },
        meta: { ...h.meta, totalBakBackups: bak.length, totalMailBackups: mail.length },
      };
    },

    listUnifiedBackups(): z.input<typeof unifiedBackupsResponse> {
      const data: Unified[] = [
        ...state.get('storageBackups').map(
          (b): Unified => ({
            id: b.id,
            source: 'hv',
            instance: b.instance,
            node: b.node,
            location: b.storage,
            guestType: b.type,
            vmid: String(b.vmid),
            time: seconds(b.ctime || b.time),
            size: b.size,
            protected: b.protected,
            verified: b.verified,
            notes: b.notes,
          }),
        ),
        ...state.get('pbsBackups').map(
          (b): Unified => ({
            id: b.id,
            source: 'bak',
            instance: b.instance,
            location: b.namespace ? `${b.datastore}/${b.namespace}` : b.datastore,
            guestType: b.backupType,
            vmid: b.vmid,
            time: seconds(b.backupTime),
            size: b.size,
            protected: b.protected,
            verified: b.verified,
            notes: b.comment,
          }),
        ),
      ].sort((a, b) => b.time - a.time || a.id.localeCompare(b.id));
      const bySource: Record<string, number> = {};
      for (const b of data) bySource[b.source] = (bySource[b.source] ?? 0) + 1;
      return { data, meta: { total: data.length, bySource } };
    },

    listSnapshots(): z.input<typeof snapshotsResponse> {
      const data = [...state.get('guestSnapshots')].sort((a, b) => b.time - a.time || a.id.localeCompare(b.id));
      return { data, meta: { total: data.length } };
    },
  };
}
