// The X.509 name constraints of the local CA: it may only vouch for loopback names and addresses, so its key cannot mint a certificate for any other site.
import forge from 'node-forge';

/** OID of the nameConstraints extension (RFC 5280 §4.2.1.10). */
export const NAME_CONSTRAINTS_OID = '2.5.29.30';

/**
 * What the CA may sign for. A dNSName constraint covers the name and every name below it, so `localhost` permits
 * `localhost` and `*.localhost` (RFC 6761: all of them mean this machine). Address constraints are address + mask.
 */
export const PERMITTED_NAMES = {
  dns: ['localhost'],
  ip: [
    { address: [127, 0, 0, 0], mask: [255, 0, 0, 0] },
    { address: [...Array(15).fill(0), 1], mask: Array(16).fill(255) },
  ],
} as const;

const { asn1 } = forge;
const bytes = (values: readonly number[]) => String.fromCharCode(...values);

/** DER of `NameConstraints { permittedSubtrees [0] }` holding PERMITTED_NAMES. */
export function nameConstraintsDer(): string {
  const subtree = (name: forge.asn1.Asn1) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [name]);
  const dns = PERMITTED_NAMES.dns.map((name) => subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 2, false, name)));
  const ips = PERMITTED_NAMES.ip.map(({ address, mask }) =>
    subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 7, false, bytes([...address, ...mask]))),
  );
  const permitted = asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [...dns, ...ips]);
  return asn1.toDer(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [permitted])).getBytes();
}

/** The extension as node-forge takes it: critical, so a verifier that does not understand it refuses the CA instead of ignoring it. */
export function nameConstraintsExtension(): { id: string; critical: true; value: string } {
  return { id: NAME_CONSTRAINTS_OID, critical: true, value: nameConstraintsDer() };
}

/** True when a PEM certificate carries exactly these constraints, marked critical (a CA made before they existed does not). */
export function hasNameConstraints(pem: string): boolean {
  const extension = forge.pki.certificateFromPem(pem).getExtension('nameConstraints') as { critical?: boolean; value?: string } | null;
  return extension?.critical === true && extension.value === nameConstraintsDer();
}
