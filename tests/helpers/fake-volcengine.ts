// Test helper: a fake Volcengine Ark OpenAPI (asset groups and assets) on port 0 that checks every request's signature and plays scripted verdicts.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { signRequest } from '../../electron/gateway/protocols/volcengine/signature.ts';

export interface FakeVolcengine {
  url: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Every request: its action and whether its signature checked out. */
  requests: { action: string; signed: boolean; body: Record<string, unknown> }[];
  /** Asset groups by id. */
  groups: Map<string, Record<string, unknown>>;
  /** The next `n` requests are refused as throttled (HTTP 429). */
  throttle(n: number): void;
  close(): Promise<void>;
}

/**
 * The fake: a URL containing `reject` ends Failed (InvalidParameter.DownloadFailed), others Active; each asset answers
 * Processing to its first GetAsset. Wrong AK or a bad signature → 401 SignatureDoesNotMatch / InvalidAccessKey.
 */
export async function startFakeVolcengine(region = 'cn-beijing'): Promise<FakeVolcengine> {
  const accessKeyId = 'AKLTfakeaccesskey0001';
  const secretAccessKey = 'c2VjcmV0LWtleS1vZi10aGUtZmFrZQ==';
  const requests: FakeVolcengine['requests'] = [];
  const groups = new Map<string, Record<string, unknown>>();
  const assets = new Map<string, Record<string, unknown> & { checks: number }>();
  let throttled = 0;
  let serial = 0;

  const answer = (res: ServerResponse, status: number, action: string, result?: unknown, error?: { Code: string; Message: string }) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ResponseMetadata: {
          RequestId: `req${serial}`,
          Action: action,
          Version: '2024-01-01',
          Service: 'ark',
          Region: region,
          ...(error && { Error: error }),
        },
        ...(result !== undefined && { Result: result }),
      }),
    );
  };

  /** Whether the Authorization header is right for the request as received. */
  const signatureOk = (req: IncomingMessage, url: URL, body: string): { ok: boolean; code?: string } => {
    const auth = req.headers['authorization'] ?? '';
    const match =
      /^HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/ark\/request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(auth);
    if (!match) return { ok: false, code: 'InvalidAuthorization' };
    const [, ak, day, scopeRegion, signedNames, signature] = match;
    if (ak !== accessKeyId) return { ok: false, code: 'InvalidAccessKey' };
    const xDate = String(req.headers['x-date'] ?? '');
    if (!xDate.startsWith(day!) || scopeRegion !== region) return { ok: false, code: 'SignatureDoesNotMatch' };
    if (req.headers['x-content-sha256'] !== createHash('sha256').update(body).digest('hex'))
      return { ok: false, code: 'SignatureDoesNotMatch' };
    const names = signedNames!.split(';');
    if (!['host', 'x-date', 'x-content-sha256'].every((name) => names.includes(name))) return { ok: false, code: 'SignatureDoesNotMatch' };
    const headers = Object.fromEntries(names.map((name) => [name, String(req.headers[name] ?? '')]));
    const expected = signRequest(
      { method: req.method ?? 'POST', url, headers, body },
      { accessKeyId, secretAccessKey, region, service: 'ark' },
    );
    return expected.signature === signature ? { ok: true } : { ok: false, code: 'SignatureDoesNotMatch' };
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
      const action = url.searchParams.get('Action') ?? '';
      const body = (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
      const check = signatureOk(req, url, text);
      requests.push({ action, signed: check.ok, body });
      serial += 1;
      if (!check.ok)
        return answer(res, 401, action, undefined, {
          Code: check.code!,
          Message: 'The request signature we calculated does not match the signature you provided.',
        });
      if (url.searchParams.get('Version') !== '2024-01-01')
        return answer(res, 400, action, undefined, { Code: 'InvalidVersion', Message: 'bad version' });
      if (throttled > 0) {
        throttled -= 1;
        return answer(res, 429, action, undefined, { Code: 'RequestLimitExceeded', Message: 'Request rate exceeded.' });
      }
      switch (action) {
        case 'CreateAssetGroup': {
          const id = `group-2026${String(serial).padStart(6, '0')}-abcde`;
          groups.set(id, { Id: id, Name: body['Name'], ProjectName: body['ProjectName'] });
          return answer(res, 200, action, { Id: id });
        }
        case 'ListAssetGroups':
          return answer(res, 200, action, { Items: [...groups.values()].slice(0, 1), TotalCount: groups.size });
        case 'CreateAsset': {
          if (!groups.has(String(body['GroupId'])))
            return answer(res, 404, action, undefined, {
              Code: 'NotFound.group_id',
              Message: `group ${String(body['GroupId'])} not found`,
            });
          const id = `asset-2026${String(serial).padStart(6, '0')}-xyzwv`;
          assets.set(id, {
            Id: id,
            GroupId: body['GroupId'],
            URL: body['URL'],
            AssetType: body['AssetType'],
            Name: body['Name'],
            checks: 0,
          });
          return answer(res, 200, action, { Id: id });
        }
        case 'GetAsset': {
          const asset = assets.get(String(body['Id']));
          if (!asset) return answer(res, 404, action, undefined, { Code: 'NotFound.asset_id', Message: 'no such asset' });
          asset.checks += 1;
          const { checks, ...record } = asset;
          if (checks === 1) return answer(res, 200, action, { ...record, Status: 'Processing' });
          if (String(asset['URL']).includes('reject'))
            return answer(res, 200, action, {
              ...record,
              Status: 'Failed',
              Error: { Code: 'InvalidParameter.DownloadFailed', Message: 'the URL could not be downloaded' },
            });
          return answer(res, 200, action, { ...record, Status: 'Active' });
        }
        default:
          return answer(res, 400, action, undefined, { Code: 'InvalidAction', Message: `unknown action ${action}` });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    accessKeyId,
    secretAccessKey,
    requests,
    groups,
    throttle: (n) => {
      throttled = n;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
