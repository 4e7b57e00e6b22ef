// The local certificate authority and localhost certificate for the TLS listener, made on first start and kept in the data dir.
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';

/** PEM texts the TLS listener needs, and where the CA lives for clients to trust. */
export interface LocalCertificates {
  caPath: string;
  ca: string;
  cert: string;
  key: string;
}

const CA_DAYS = 3650;
const LEAF_DAYS = 397;
/** A leaf this close to expiry is replaced at start. */
const RENEW_BEFORE_MS = 30 * 24 * 3600 * 1000;

/** Loads `<dataDir>/tls/*`, creating the CA once and the leaf whenever it is missing or near expiry. */
export function ensureCertificates(dataDir: string, now = Date.now()): LocalCertificates {
  const dir = path.join(dataDir, 'tls');
  mkdirSync(dir, { recursive: true });
  const file = (name: string) => path.join(dir, name);
  if (!existsSync(file('ca.pem')) || !existsSync(file('ca-key.pem'))) {
    const { cert, key } = makeCertificate({ commonName: 'Gatehouse Local CA', days: CA_DAYS, now, isCa: true });
    writeSecret(file('ca-key.pem'), key);
    writeFileSync(file('ca.pem'), cert);
  }
  const ca = readFileSync(file('ca.pem'), 'utf8');
  if (!existsSync(file('server.pem')) || !existsSync(file('server-key.pem')) || expiresSoon(readFileSync(file('server.pem'), 'utf8'), now)) {
    const issuer = { cert: ca, key: readFileSync(file('ca-key.pem'), 'utf8') };
    const { cert, key } = makeCertificate({ commonName: 'localhost', days: LEAF_DAYS, now, isCa: false, issuer });
    writeSecret(file('server-key.pem'), key);
    writeFileSync(file('server.pem'), cert);
  }
  return { caPath: file('ca.pem'), ca, cert: readFileSync(file('server.pem'), 'utf8'), key: readFileSync(file('server-key.pem'), 'utf8') };
}

interface CertificateSpec {
  commonName: string;
  days: number;
  now: number;
  isCa: boolean;
  /** Signs with this CA; absent: self-signed. */
  issuer?: { cert: string; key: string };
}

function makeCertificate(spec: CertificateSpec): { cert: string; key: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  cert.serialNumber = `01${forge.util.bytesToHex(forge.random.getBytesSync(15))}`;
  cert.validity.notBefore = new Date(spec.now - 60_000);
  cert.validity.notAfter = new Date(spec.now + spec.days * 24 * 3600 * 1000);
  const subject = [{ name: 'commonName', value: spec.commonName }, { name: 'organizationName', value: 'Gatehouse (local)' }];
  cert.setSubject(subject);
  const issuerCert = spec.issuer ? forge.pki.certificateFromPem(spec.issuer.cert) : undefined;
  cert.setIssuer(issuerCert ? issuerCert.subject.attributes : subject);
  cert.setExtensions(
    spec.isCa
      ? [
          { name: 'basicConstraints', cA: true, critical: true },
          { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
          { name: 'subjectKeyIdentifier' },
        ]
      : [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
          { name: 'extKeyUsage', serverAuth: true },
          {
            name: 'subjectAltName',
            altNames: [
              { type: 2, value: 'localhost' },
              { type: 7, ip: '127.0.0.1' },
              { type: 7, ip: '::1' },
            ],
          },
        ],
  );
  const signingKey = forge.pki.privateKeyFromPem(spec.issuer ? spec.issuer.key : privateKey);
  cert.sign(signingKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: privateKey };
}

function expiresSoon(pem: string, now: number): boolean {
  return Date.parse(new X509Certificate(pem).validTo) - now < RENEW_BEFORE_MS;
}

function writeSecret(file: string, text: string): void {
  writeFileSync(file, text, { mode: 0o600 });
  chmodSync(file, 0o600);
}
