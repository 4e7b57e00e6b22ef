// Unit tests of the local CA and localhost certificate: signed by the CA, right SANs, reused on restart, renewed near expiry.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { test } from 'node:test';
import { ensureCertificates } from '../../../electron/gateway/server/tls/certificates.ts';
import { tempDataDir } from '../../helpers/gateway.ts';

test('the leaf is signed by the CA for localhost, 127.0.0.1 and ::1; keys are 0600; a restart reuses both', () => {
  const dir = tempDataDir();
  try {
    const first = ensureCertificates(dir);
    const ca = new X509Certificate(first.ca);
    const leaf = new X509Certificate(first.cert);
    assert.ok(ca.ca);
    assert.ok(leaf.checkIssued(ca) && leaf.verify(ca.publicKey));
    assert.equal(leaf.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    assert.equal(statSync(`${dir}/tls/ca-key.pem`).mode & 0o777, 0o600);
    assert.equal(statSync(`${dir}/tls/server-key.pem`).mode & 0o777, 0o600);
    const again = ensureCertificates(dir);
    assert.equal(again.ca, first.ca);
    assert.equal(again.cert, first.cert);
    const later = ensureCertificates(dir, Date.parse(leaf.validTo) - 24 * 3600 * 1000);
    assert.equal(later.ca, first.ca, 'the CA clients trust stays');
    assert.notEqual(later.cert, first.cert, 'a leaf near expiry is replaced');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
