// The admin event socket: pushes asset and group changes and deletions, finished scans and new journal entries to the console so it updates without a reload.
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { ADMIN_WS_PATH, ADMIN_WS_PROTOCOL, type AdminEvent } from '../../../shared/admin-events.ts';
import type { GatewayContext, GatewayEvents } from '../context.ts';
import { guarded } from '../safe-events.ts';
import { presentedAdminToken } from '../server/admin-auth.ts';
import { guardAdmin } from './admin.ts';

/** Chooses the admin subprotocol when offered, else the first that carries no credential (for other socket routes). */
export function chooseSubprotocol(protocols: Set<string>): string | false {
  if (protocols.has(ADMIN_WS_PROTOCOL)) return ADMIN_WS_PROTOCOL;
  const plain = [...protocols].find((item) => !/^(gatehouse\.token\.|openai-insecure-api-key\.)/.test(item));
  return plain ?? false;
}

/** GET /admin/ws, a socket route family (registered where @fastify/websocket serves), behind the admin routes' own hooks. */
export async function adminSocketRoutes(app: FastifyInstance, options: { context: GatewayContext }): Promise<void> {
  const { context } = options;
  guardAdmin(app, context);
  const { events, accounts, scheduler } = context;
  app.get(ADMIN_WS_PATH, { websocket: true, config: { public: true } }, (socket: WebSocket, request) => {
    // The token subprotocol was checked by the hook; the socket must still speak the admin protocol.
    if (socket.protocol !== ADMIN_WS_PROTOCOL || presentedAdminToken(request.headers) === undefined) {
      socket.close(1002, `subprotocol ${ADMIN_WS_PROTOCOL} required`);
      return;
    }
    const send = (event: AdminEvent) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(event));
    };
    const accountName = (accountId: number) => accounts.findById(accountId)?.name ?? '';
    const onAsset = (...[asset]: GatewayEvents['asset.changed']) => {
      const { account_id: accountId, ...record } = asset;
      send({ type: 'asset.changed', account: accountName(accountId), asset: record });
    };
    const onAssetCreated = (...[asset]: GatewayEvents['asset.created']) => {
      const { account_id: accountId, ...record } = asset;
      send({ type: 'asset.created', account: accountName(accountId), asset: record });
    };
    const onGroup = (...[group]: GatewayEvents['group.changed']) => {
      const { account_id: accountId, ...record } = group;
      send({ type: 'group.changed', account: accountName(accountId), group: record });
    };
    const onAssetDeleted = (...[asset]: GatewayEvents['asset.deleted']) =>
      send({ type: 'asset.deleted', account: accountName(asset.account_id), assetId: asset.asset_id });
    const onGroupDeleted = (...[group]: GatewayEvents['group.deleted']) =>
      send({ type: 'group.deleted', account: accountName(group.account_id), groupId: group.group_id });
    // The scheduler plans its next scan right after announcing this one: read the plan once it is made.
    const onScan = (...[report]: GatewayEvents['scan.finished']) =>
      setImmediate(() => send({ type: 'scan.finished', report, nextScanAt: scheduler.nextRunAt }));
    const onJournal = (...[entry]: GatewayEvents['journal.added']) => send({ type: 'journal.added', entry });
    events.on('asset.changed', onAsset);
    events.on('asset.created', onAssetCreated);
    events.on('group.changed', onGroup);
    events.on('asset.deleted', onAssetDeleted);
    events.on('group.deleted', onGroupDeleted);
    events.on('scan.finished', onScan);
    events.on('journal.added', onJournal);
    socket.on(
      'close',
      guarded(
        (error) => void events.emit('error', error),
        () => {
          events.off('asset.changed', onAsset);
          events.off('asset.created', onAssetCreated);
          events.off('group.changed', onGroup);
          events.off('asset.deleted', onAssetDeleted);
          events.off('group.deleted', onGroupDeleted);
          events.off('scan.finished', onScan);
          events.off('journal.added', onJournal);
        },
      ),
    );
    // Incoming messages are not part of the protocol; they are ignored.
    send({ type: 'hello', nextScanAt: scheduler.nextRunAt });
  });
}
