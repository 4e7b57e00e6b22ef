// Unit test of the TLS listener's certificate renewal: a renewed leaf serves the next handshakes without a restart.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import tls from 'node:tls';
import Fastify from 'fastify';
import { CERTIFICATE_LIFETIMES, ensureCertificates, renewLeaf } from '../../../electron/gateway/server/tls/certificates.ts';
import { listenTls } from '../../../electron/gateway/server/tls/listener.ts';
import { tempDataDir } from '../../helpers/gateway.ts';

/** The leaf a real handshake with `url` presents, verified against `ca`. */
function presented(url: string, ca: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: hostname, port: Number(port), ca, servername: 'localhost' }, () => {
      resolve(socket.getPeerX509Certificate()!.fingerprint256);
      socket.destroy();
    });
    socket.on('error', reject);
  });
}

test('a running TLS listener switches to the renewed leaf for new handshakes, still trusted through the same CA', async () => {
  const dir = tempDataDir();
  const app = Fastify();
  await app.ready();
  // Made long enough ago that the leaf is now within its renewal window (and the CA is not).
  const daysAgo = CERTIFICATE_LIFETIMES.leafDays - CERTIFICATE_LIFETIMES.leafRenewBeforeDays + 1;
  const first = ensureCertificates(dir, Date.now() - daysAgo * 24 * 3600 * 1000);
  const listener = await listenTls(app, first, '127.0.0.1', 0, { renew: () => renewLeaf(dir), everyMs: 20 });
  try {
    let wanted: string | undefined;
    // The first renewal writes the new leaf; later ones return it unchanged.
    while (!wanted) {
      const current = new X509Certificate(readFileSync(`${dir}/tls/server.pem`, 'utf8'));
      if (current.fingerprint256 !== new X509Certificate(first.cert).fingerprint256) wanted = current.fingerprint256;
      else await sleep(20);
    }
    let seen = await presented(listener.url, first.ca);
    while (seen !== wanted) {
      assert.equal(seen, new X509Certificate(first.cert).fingerprint256, 'only the old or the renewed leaf is ever served');
      await sleep(20);
      seen = await presented(listener.url, first.ca);
    }
  } finally {
    await listener.close();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
