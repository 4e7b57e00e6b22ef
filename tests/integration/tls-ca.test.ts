// Integration tests of the local CA with real TLS handshakes: it vouches for loopback names only (name constraints), lives a year, its leaf 30 days, and an old unconstrained CA is replaced.
import assert from 'node:assert/strict';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import tls from 'node:tls';
import forge from 'node-forge';
import { createGateway } from '../../electron/gateway/index.ts';
import { noSecretStore } from '../../electron/gateway/secrets/secret-store.ts';
import { ensureCertificates } from '../../electron/gateway/server/tls/certificates.ts';
import { tempDirs } from '../helpers/gateway.ts';
import { rawRequest } from '../helpers/raw-http.ts';

const DAY_MS = 24 * 3600 * 1000;
const { fresh, removeAll } = tempDirs();

/** Serves `cert` on a real TLS socket and connects to it as a client trusting `ca` for `servername`; resolves with the verification outcome. */
async function handshake(
  cert: { cert: string; key: string },
  ca: string,
  servername: string,
): Promise<{ authorized: boolean; error?: string }> {
  const server = tls.createServer({ cert: cert.cert, key: cert.key }, (socket) => socket.end());
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await new Promise((resolve) => {
      // The host name is checked here too (checkServerIdentity); chain verification, name constraints included, is OpenSSL's.
      const socket = tls.connect({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', servername, ca }, () => {
        resolve({ authorized: socket.authorized });
        socket.destroy();
      });
      socket.on('error', (error: NodeJS.ErrnoException) => resolve({ authorized: false, error: `${error.code}: ${error.message}` }));
    });
  } finally {
    server.close();
  }
}

/**
 * Issues a certificate with node-forge, as anyone holding a CA key could: a self-signed CA without name constraints
 * (as Gatehouse made them before) when `issuer` is absent, else a leaf for `dns` signed with the issuer's key.
 */
function issue(dns: string, issuer?: { cert: string; key: string }): { cert: string; key: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + (issuer ? 10 : 3650) * DAY_MS);
  cert.setSubject([{ name: 'commonName', value: dns }]);
  cert.setIssuer(issuer ? forge.pki.certificateFromPem(issuer.cert).subject.attributes : [{ name: 'commonName', value: dns }]);
  cert.setExtensions(
    issuer
      ? [
          { name: 'extKeyUsage', serverAuth: true },
          { name: 'subjectAltName', altNames: [{ type: 2, value: dns }] },
        ]
      : [
          { name: 'basicConstraints', cA: true, critical: true },
          { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
        ],
  );
  cert.sign(forge.pki.privateKeyFromPem(issuer?.key ?? privateKey), forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: privateKey };
}

describe('local CA', () => {
  after(() => {
    removeAll();
  });

  test('its leaf for localhost passes a real TLS handshake; a certificate for example.com signed with the CA key is rejected by the name constraints', async () => {
    const dir = fresh();
    const local = ensureCertificates(dir);
    assert.deepEqual(await handshake(local, local.ca, 'localhost'), { authorized: true });
    const caKey = readFileSync(path.join(dir, 'tls', 'ca-key.pem'), 'utf8');
    const forged = issue('example.com', { cert: local.ca, key: caKey });
    const refused = await handshake(forged, local.ca, 'example.com');
    assert.equal(refused.authorized, false);
    assert.match(refused.error ?? '', /permitted subtree violation/i);
    // The same forgery under a CA without constraints (as Gatehouse made them before) was accepted: the constraints are what refuses it.
    const old = issue('Gatehouse Local CA');
    assert.deepEqual(await handshake(issue('example.com', old), old.cert, 'example.com'), { authorized: true });
    assert.ok(new X509Certificate(forged.cert).checkIssued(new X509Certificate(local.ca)), 'the forgery is really issued by that CA');
  });

  test('the CA lives a year and the leaf 30 days; the CA key is 0600', () => {
    const dir = fresh();
    const now = Date.now();
    const made = ensureCertificates(dir, now);
    const days = (pem: string) => Math.round((Date.parse(new X509Certificate(pem).validTo) - now) / DAY_MS);
    assert.equal(days(made.ca), 365);
    assert.equal(days(made.cert), 30);
    assert.equal(statSync(path.join(dir, 'tls', 'ca-key.pem')).mode & 0o777, 0o600);
  });

  test('a CA without name constraints (made by an older Gatehouse) is replaced at start with a one-line notice; TLS clients trusting the new CA connect', async () => {
    const dataDir = fresh();
    const old = issue('Gatehouse Local CA');
    mkdirSync(path.join(dataDir, 'tls'));
    writeFileSync(path.join(dataDir, 'tls', 'ca.pem'), old.cert);
    writeFileSync(path.join(dataDir, 'tls', 'ca-key.pem'), old.key, { mode: 0o644 });
    const gateway = await createGateway({ secrets: noSecretStore, port: 0, tlsPort: 0, dataDir });
    try {
      const started = await gateway.start();
      assert.match(started.caNotice ?? '', /new local CA.*trust .*ca\.pem again/);
      assert.ok(!started.caNotice!.includes('\n'), 'one line');
      const ca = readFileSync(started.caPath!, 'utf8');
      assert.notEqual(ca, old.cert);
      assert.match(new X509Certificate(ca).subject, /localhost only/);
      assert.equal(statSync(path.join(dataDir, 'tls', 'ca-key.pem')).mode & 0o777, 0o600);
      assert.equal((await rawRequest(`${started.tlsUrl}/healthz`, { ca })).status, 200);
    } finally {
      await gateway.stop();
    }
    const again = await createGateway({ secrets: noSecretStore, port: 0, tlsPort: 0, dataDir });
    try {
      assert.equal((await again.start()).caNotice, undefined, 'the new CA is kept on the next start');
    } finally {
      await again.stop();
    }
  });
});
