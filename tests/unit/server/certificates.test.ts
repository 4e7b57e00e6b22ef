// Unit tests of the local CA and localhost certificate: signed by the CA, right SANs, reused on restart, renewed near expiry (at start and while running) or when the CA changes.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, test } from 'node:test';
import { CERTIFICATE_LIFETIMES, ensureCertificates, renewLeaf } from '../../../electron/gateway/server/tls/certificates.ts';
import { tempDirs } from '../../helpers/gateway.ts';

const { fresh, removeAll } = tempDirs();
afterEach(() => {
  removeAll();
});

test('the leaf is signed by the CA for localhost, 127.0.0.1 and ::1, for TLS servers; keys are 0600; a restart reuses both', () => {
  const dir = fresh();
  const first = ensureCertificates(dir);
  assert.equal(first.caPath, `${dir}/tls/ca.pem`);
  const ca = new X509Certificate(first.ca);
  const leaf = new X509Certificate(first.cert);
  assert.ok(ca.ca, 'the CA may sign certificates');
  assert.ok(!leaf.ca, 'the leaf may not');
  assert.ok(leaf.checkIssued(ca) && leaf.verify(ca.publicKey));
  assert.equal(leaf.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
  assert.ok(leaf.checkHost('localhost') && leaf.checkIP('127.0.0.1') && leaf.checkIP('::1'));
  assert.deepEqual(leaf.keyUsage, ['1.3.6.1.5.5.7.3.1'], 'extended key usage: TLS server authentication');
  assert.ok(Date.parse(leaf.validTo) - Date.now() <= 398 * 24 * 3600 * 1000, 'browsers accept leaves of at most 398 days');
  assert.equal(statSync(`${dir}/tls/ca-key.pem`).mode & 0o777, 0o600);
  assert.equal(statSync(`${dir}/tls/server-key.pem`).mode & 0o777, 0o600);
  const again = ensureCertificates(dir);
  assert.deepEqual(again, first);
});

test('a leaf near expiry is replaced under the same CA', () => {
  const dir = fresh();
  const first = ensureCertificates(dir);
  const later = ensureCertificates(dir, Date.parse(new X509Certificate(first.cert).validTo) - 24 * 3600 * 1000);
  assert.equal(later.ca, first.ca, 'the CA clients trust stays');
  assert.notEqual(later.cert, first.cert);
  assert.ok(new X509Certificate(later.cert).checkIssued(new X509Certificate(later.ca)));
});

test('a replaced CA (its files deleted or broken) gets a leaf issued by the new CA', () => {
  const dir = fresh();
  const first = ensureCertificates(dir);
  rmSync(`${dir}/tls/ca-key.pem`);
  const second = ensureCertificates(dir);
  assert.notEqual(second.ca, first.ca);
  assert.ok(new X509Certificate(second.cert).checkIssued(new X509Certificate(second.ca)), 'the old leaf is not kept');
  writeFileSync(`${dir}/tls/server-key.pem`, 'not a key');
  const third = ensureCertificates(dir);
  assert.equal(third.ca, second.ca);
  assert.notEqual(third.cert, second.cert, 'a leaf whose key is broken is replaced');
});

test("a running listener's renewal gives a new leaf under the same CA once the leaf nears expiry, and none before", () => {
  const dir = fresh();
  const made = ensureCertificates(dir);
  assert.equal(renewLeaf(dir)?.cert, made.cert);
  const nearEnd = Date.parse(new X509Certificate(made.cert).validTo) - (CERTIFICATE_LIFETIMES.leafRenewBeforeDays - 1) * 24 * 3600 * 1000;
  const renewed = renewLeaf(dir, nearEnd)!;
  assert.notEqual(renewed.cert, made.cert);
  assert.ok(new X509Certificate(renewed.cert).checkIssued(new X509Certificate(made.ca)));
});
