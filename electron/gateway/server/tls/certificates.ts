// The local certificate authority and localhost certificate for the TLS listener, made on first start and kept in the data dir.
import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../../storage/private-files.ts';

/** PEM texts the TLS listener needs, and where the CA lives for clients to trust. */
export interface LocalCertificates {
  caPath: string;
  ca: string;
  cert: string;
  key: string;
}

const CA_DAYS = 3650;
const LEAF_DAYS = 397;
/** A certificate this close to expiry is replaced at start. */
const RENEW_BEFORE_MS = 30 * 24 * 3600 * 1000;

/**
 * Loads `<dataDir>/tls/*`: the CA is made once (again only when missing, broken or near expiry), the leaf whenever it is
 * missing, near expiry, not matching its key or not issued by the current CA. Keys are kept at mode 0600.
 */
export function ensureCertificates(dataDir: string, now = Date.now()): LocalCertificates {
  const dir = path.join(dataDir, 'tls');
  ensurePrivateDir(dir);
  const file = (name: string) => path.join(dir, name);
  let ca = usable(file('ca.pem'), file('ca-key.pem'), now);
  if (!ca) {
    const made = makeCertificate({ commonName: 'Gatehouse Local CA', days: CA_DAYS, now, isCa: true });
    writeSecret(file('ca-key.pem'), made.key);
    writeSecret(file('ca.pem'), made.cert);
    ca = { cert: made.cert, key: made.key, x509: new X509Certificate(made.cert) };
  }
  let leaf = usable(file('server.pem'), file('server-key.pem'), now);
  if (!leaf || !leaf.x509.checkIssued(ca.x509) || !leaf.x509.verify(ca.x509.publicKey)) {
    const made = makeCertificate({ commonName: 'localhost', days: LEAF_DAYS, now, isCa: false, issuer: ca });
    writeSecret(file('server-key.pem'), made.key);
    writeSecret(file('server.pem'), made.cert);
    leaf = { cert: made.cert, key: made.key, x509: new X509Certificate(made.cert) };
  }
  return { caPath: file('ca.pem'), ca: ca.cert, cert: leaf.cert, key: leaf.key };
}

/** A certificate and its key read from disk, when both are there, belong together and stay valid for a while. */
function usable(certFile: string, keyFile: string, now: number): { cert: string; key: string; x509: X509Certificate } | undefined {
  if (!existsSync(certFile) || !existsSync(keyFile)) return undefined;
  try {
    const cert = readFileSync(certFile, 'utf8');
    const key = readFileSync(keyFile, 'utf8');
    const x509 = new X509Certificate(cert);
    if (Date.parse(x509.validTo) - now < RENEW_BEFORE_MS || !x509.checkPrivateKey(createPrivateKey(key))) return undefined;
    chmodSync(keyFile, 0o600);
    return { cert, key, x509 };
  } catch {
    return undefined;
  }
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

function writeSecret(file: string, text: string): void {
  writeFileSync(file, text, { mode: PRIVATE_FILE_MODE });
  chmodSync(file, PRIVATE_FILE_MODE);
}
