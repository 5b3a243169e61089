/**
 * A certificate authority and a server certificate for HTTPS clusters, built with Node's crypto and a small
 * DER encoder (X.509 v3, ECDSA P-256 with SHA-256): enough for kubectl, client-go and Node clients to verify
 * the simulated API servers against the CA written into the kubeconfig.
 */
import {
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  type KeyObject,
} from 'node:crypto';
import { isIP } from 'node:net';

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

const sequence = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const explicit = (n: number, content: Buffer) => tlv(0xa0 + n, content);
const octetString = (content: Buffer) => tlv(0x04, content);
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));
const bool = (value: boolean) => tlv(0x01, Buffer.from([value ? 0xff : 0x00]));

function integer(value: Buffer | number): Buffer {
  let bytes = typeof value === 'number' ? Buffer.from([value]) : value;
  while (bytes.length > 1 && bytes[0] === 0 && (bytes[1] & 0x80) === 0)
    bytes = bytes.subarray(1);
  if (bytes[0] & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return tlv(0x02, bytes);
}

function oid(text: string): Buffer {
  const parts = text.split('.').map(Number);
  const bytes: number[] = [parts[0] * 40 + parts[1]];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [part & 0x7f];
    let rest = part >> 7;
    while (rest > 0) {
      chunk.unshift((rest & 0x7f) | 0x80);
      rest >>= 7;
    }
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function bitString(content: Buffer, unusedBits = 0): Buffer {
  return tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), content]));
}

function utcTime(date: Date): Buffer {
  const iso = date.toISOString();
  const text = `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(
    8,
    10,
  )}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

function name(commonName: string, organization?: string): Buffer {
  const rdns = [];
  if (organization)
    rdns.push(set(sequence(oid('2.5.4.10'), utf8(organization))));
  rdns.push(set(sequence(oid('2.5.4.3'), utf8(commonName))));
  return sequence(...rdns);
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return sequence(
    oid(id),
    ...(critical ? [bool(true)] : []),
    octetString(value),
  );
}

const ECDSA_SHA256 = sequence(oid('1.2.840.10045.4.3.2'));

function keyId(publicKeyDer: Buffer): Buffer {
  return createHash('sha1').update(publicKeyDer).digest();
}

function ipBytes(address: string): Buffer {
  if (isIP(address) === 4) return Buffer.from(address.split('.').map(Number));
  const [head, tail = ''] = address.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return Buffer.concat(groups.map(g => Buffer.from(g.padStart(4, '0'), 'hex')));
}

function certificate(options: {
  subject: Buffer;
  issuer: Buffer;
  publicKeyDer: Buffer;
  signingKey: KeyObject;
  extensions: Buffer[];
  days: number;
}): Buffer {
  const serial = randomBytes(16);
  serial[0] &= 0x7f;
  const notBefore = new Date(Date.now() - 60 * 60 * 1000);
  const notAfter = new Date(Date.now() + options.days * 24 * 60 * 60 * 1000);
  const tbs = sequence(
    explicit(0, integer(2)),
    integer(serial),
    ECDSA_SHA256,
    options.issuer,
    sequence(utcTime(notBefore), utcTime(notAfter)),
    options.subject,
    options.publicKeyDer,
    explicit(3, sequence(...options.extensions)),
  );
  const signature = sign('sha256', tbs, options.signingKey);
  return sequence(tbs, ECDSA_SHA256, bitString(signature));
}

function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join(
    '\n',
  )}\n-----END ${label}-----\n`;
}

/** A CA certificate and a server certificate (with its key) signed by it, all PEM. */
export interface GeneratedTls {
  ca: string;
  cert: string;
  key: string;
}

/** Generates a CA and a server certificate valid for `hosts` (IP addresses or DNS names) plus localhost. */
export function generateTls(hosts: string[]): GeneratedTls {
  const caKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const caPublic = caKeys.publicKey.export({ type: 'spki', format: 'der' });
  const caName = name('fleet-sim CA', 'flux-fleet');
  const caId = keyId(caPublic);
  const caDer = certificate({
    subject: caName,
    issuer: caName,
    publicKeyDer: caPublic,
    signingKey: caKeys.privateKey,
    days: 3650,
    extensions: [
      extension('2.5.29.19', true, sequence(bool(true))),
      // keyCertSign, cRLSign, digitalSignature
      extension('2.5.29.15', true, bitString(Buffer.from([0x86]), 1)),
      extension('2.5.29.14', false, octetString(caId)),
    ],
  });

  const serverKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const serverPublic = serverKeys.publicKey.export({
    type: 'spki',
    format: 'der',
  });
  const names = new Set(['localhost', '127.0.0.1', '::1', ...hosts]);
  const altNames = [...names].map(host =>
    isIP(host)
      ? tlv(0x87, ipBytes(host))
      : tlv(0x82, Buffer.from(host, 'ascii')),
  );
  const serverDer = certificate({
    subject: name('fleet-sim', 'flux-fleet'),
    issuer: caName,
    publicKeyDer: serverPublic,
    signingKey: caKeys.privateKey,
    days: 825,
    extensions: [
      extension('2.5.29.19', true, sequence()),
      // digitalSignature, keyEncipherment
      extension('2.5.29.15', true, bitString(Buffer.from([0xa0]), 5)),
      extension('2.5.29.37', false, sequence(oid('1.3.6.1.5.5.7.3.1'))),
      extension('2.5.29.17', false, sequence(...altNames)),
      extension('2.5.29.35', false, sequence(tlv(0x80, caId))),
    ],
  });
  return {
    ca: pem('CERTIFICATE', caDer),
    cert: pem('CERTIFICATE', serverDer),
    key: createPrivateKey(
      serverKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }),
    )
      .export({ type: 'pkcs8', format: 'pem' })
      .toString(),
  };
}
