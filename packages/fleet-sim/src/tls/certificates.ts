/**
 * A certificate authority and a server certificate for HTTPS clusters (X.509 v3, ECDSA P-256 with SHA-256),
 * built with `@peculiar/x509` on Node's WebCrypto: enough for kubectl, client-go and Node clients to verify the
 * simulated API servers against the CA written into the kubeconfig.
 */
import {
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  ExtendedKeyUsage,
  ExtendedKeyUsageExtension,
  KeyUsageFlags,
  KeyUsagesExtension,
  PemConverter,
  SubjectAlternativeNameExtension,
  SubjectKeyIdentifierExtension,
  X509CertificateGenerator,
} from '@peculiar/x509';
import { webcrypto } from 'node:crypto';
import { isIP } from 'node:net';

const crypto = webcrypto as unknown as Crypto;
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY_MS = 24 * 60 * 60 * 1000;

/** A CA certificate and a server certificate (with its key) signed by it, all PEM. */
export interface GeneratedTls {
  ca: string;
  cert: string;
  key: string;
}

function validity(days: number) {
  // an hour back: clocks of clients a little behind still accept it
  return { notBefore: new Date(Date.now() - 60 * 60 * 1000), notAfter: new Date(Date.now() + days * DAY_MS) };
}

/** Generates a CA and a server certificate valid for `hosts` (IP addresses or DNS names) plus localhost. */
export async function generateTls(hosts: string[]): Promise<GeneratedTls> {
  const caKeys = await crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const caCert = await X509CertificateGenerator.createSelfSigned(
    {
      name: 'O=flux-fleet, CN=fleet-sim CA',
      keys: caKeys,
      signingAlgorithm: ALGORITHM,
      ...validity(3650),
      extensions: [
        new BasicConstraintsExtension(true, undefined, true),
        new KeyUsagesExtension(
          KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign | KeyUsageFlags.digitalSignature,
          true,
        ),
        await SubjectKeyIdentifierExtension.create(caKeys.publicKey, false, crypto),
      ],
    },
    crypto,
  );

  const serverKeys = await crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const names = new Set(['localhost', '127.0.0.1', '::1', ...hosts]);
  const serverCert = await X509CertificateGenerator.create(
    {
      subject: 'O=flux-fleet, CN=fleet-sim',
      issuer: caCert.subject,
      publicKey: serverKeys.publicKey,
      signingKey: caKeys.privateKey,
      signingAlgorithm: ALGORITHM,
      // within the 825 days clients accept for a server certificate
      ...validity(825),
      extensions: [
        new BasicConstraintsExtension(false, undefined, true),
        new KeyUsagesExtension(KeyUsageFlags.digitalSignature | KeyUsageFlags.keyEncipherment, true),
        new ExtendedKeyUsageExtension([ExtendedKeyUsage.serverAuth]),
        new SubjectAlternativeNameExtension(
          [...names].map(host => ({ type: isIP(host) ? ('ip' as const) : ('dns' as const), value: host })),
        ),
        await AuthorityKeyIdentifierExtension.create(caKeys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  const key = await crypto.subtle.exportKey('pkcs8', serverKeys.privateKey);
  return {
    ca: caCert.toString('pem'),
    cert: serverCert.toString('pem'),
    key: `${PemConverter.encode(key, 'PRIVATE KEY')}\n`,
  };
}
