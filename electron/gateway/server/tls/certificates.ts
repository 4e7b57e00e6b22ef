// The local certificate authority and localhost certificate for the TLS listener, made on first start and kept in the data dir.
import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../../private-files.ts';
import { DAY_MS } from '../../time.ts';
import { hasNameConstraints, nameConstraintsExtension } from './name-constraints.ts';

/** PEM texts the TLS listener needs, and where the CA lives for clients to trust. */
export interface LocalCertificates {
  caPath: string;
  ca: string;
  cert: string;
  key: string;
  /** Set when an existing CA was replaced on this start: one line telling the user to trust the new CA. */
  caNotice?: string;
}

/**
 * Lifetimes of the local CA and of the localhost certificate, and how early each is replaced. The CA is name-constrained
 * to loopback names and addresses, so a stolen key cannot impersonate other sites; a year bounds how long a
 * forgotten trust entry stays useful, at the cost of trusting a new CA once a year. The leaf lives 30 days (the
 * gateway renews it on start and while running, nobody has to trust it), as short-lived leaves are the norm for
 * automated local CAs (Caddy's are hours, step-ca's a day).
 */
export const CERTIFICATE_LIFETIMES = {
  caDays: 365,
  /** A CA this close to expiry is replaced at start (its users are told to trust the new one). */
  caRenewBeforeDays: 30,
  leafDays: 30,
  /** A leaf this close to expiry is replaced, at start and by the running TLS listener. */
  leafRenewBeforeDays: 10,
} as const;

const file = (dataDir: string, name: string) => path.join(dataDir, 'tls', name);

/**
 * Loads `<dataDir>/tls/*`: the CA is made once and again only when missing, broken, near expiry or lacking the name
 * constraints (a CA made by an older Gatehouse); the leaf whenever it is missing, near expiry, not matching its key or
 * not issued by the current CA. Keys are kept at mode 0600.
 */
export function ensureCertificates(dataDir: string, now = Date.now()): LocalCertificates {
  ensurePrivateDir(path.join(dataDir, 'tls'));
  const caPath = file(dataDir, 'ca.pem');
  const existed = existsSync(caPath);
  let ca = usable(caPath, file(dataDir, 'ca-key.pem'), now, CERTIFICATE_LIFETIMES.caRenewBeforeDays);
  if (ca && !hasNameConstraints(ca.cert)) ca = undefined;
  let caNotice: string | undefined;
  if (!ca) {
    const made = makeCertificate({
      commonName: 'Gatehouse Local CA (localhost only)',
      days: CERTIFICATE_LIFETIMES.caDays,
      now,
      isCa: true,
    });
    writeSecret(file(dataDir, 'ca-key.pem'), made.key);
    writeSecret(caPath, made.cert);
    ca = { cert: made.cert, key: made.key, x509: new X509Certificate(made.cert) };
    if (existed)
      caNotice = `tls: made a new local CA (the old one was expiring, broken or not limited to localhost): trust ${caPath} again and remove the old "Gatehouse Local CA" from your trust stores`;
  }
  return { caPath, ...ensureLeaf(dataDir, ca, now), ...(caNotice && { caNotice }) };
}

/** The current leaf and key, renewed under the CA on disk when near expiry; for the running TLS listener (the CA itself is only replaced at start). */
export function renewLeaf(dataDir: string, now = Date.now()): { cert: string; key: string } | undefined {
  const ca = usable(file(dataDir, 'ca.pem'), file(dataDir, 'ca-key.pem'), now, 0);
  return ca ? ensureLeaf(dataDir, ca, now) : undefined;
}

function ensureLeaf(dataDir: string, ca: Loaded, now: number): { ca: string; cert: string; key: string } {
  let leaf = usable(file(dataDir, 'server.pem'), file(dataDir, 'server-key.pem'), now, CERTIFICATE_LIFETIMES.leafRenewBeforeDays);
  if (!leaf || !leaf.x509.checkIssued(ca.x509) || !leaf.x509.verify(ca.x509.publicKey)) {
    // Never past the CA's own end.
    const days = Math.min(CERTIFICATE_LIFETIMES.leafDays, (Date.parse(ca.x509.validTo) - now) / DAY_MS);
    const made = makeCertificate({ commonName: 'localhost', days, now, isCa: false, issuer: ca });
    writeSecret(file(dataDir, 'server-key.pem'), made.key);
    writeSecret(file(dataDir, 'server.pem'), made.cert);
    leaf = { cert: made.cert, key: made.key, x509: new X509Certificate(made.cert) };
  }
  return { ca: ca.cert, cert: leaf.cert, key: leaf.key };
}

interface Loaded {
  cert: string;
  key: string;
  x509: X509Certificate;
}

/** A certificate and its key read from disk, when both are there, belong together and stay valid for `renewBeforeDays` more. */
function usable(certFile: string, keyFile: string, now: number, renewBeforeDays: number): Loaded | undefined {
  if (!existsSync(certFile) || !existsSync(keyFile)) return undefined;
  try {
    const cert = readFileSync(certFile, 'utf8');
    const key = readFileSync(keyFile, 'utf8');
    const x509 = new X509Certificate(cert);
    if (Date.parse(x509.validTo) - now < renewBeforeDays * DAY_MS || !x509.checkPrivateKey(createPrivateKey(key))) return undefined;
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
  cert.validity.notAfter = new Date(spec.now + spec.days * DAY_MS);
  const subject = [
    { name: 'commonName', value: spec.commonName },
    { name: 'organizationName', value: 'Gatehouse (local)' },
  ];
  cert.setSubject(subject);
  const issuerCert = spec.issuer ? forge.pki.certificateFromPem(spec.issuer.cert) : undefined;
  cert.setIssuer(issuerCert ? issuerCert.subject.attributes : subject);
  cert.setExtensions(
    spec.isCa
      ? [
          // pathLenConstraint 0: no intermediate CAs below this one.
          { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
          { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
          { name: 'subjectKeyIdentifier' },
          nameConstraintsExtension(),
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
