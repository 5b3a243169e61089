import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import { generateTls } from './certificates';

describe('generateTls', () => {
  it('gives a CA and a server certificate that Node verifies for every host, with the key that matches', async () => {
    const tls = await generateTls(['10.1.2.3', 'sim.example.test']);
    const ca = new X509Certificate(tls.ca);
    const server = new X509Certificate(tls.cert);
    expect(ca.ca).toBe(true);
    expect(ca.verify(ca.publicKey)).toBe(true);
    expect(server.ca).toBe(false);
    expect(server.checkIssued(ca)).toBe(true);
    expect(server.verify(ca.publicKey)).toBe(true);
    for (const host of ['localhost', 'sim.example.test']) expect(server.checkHost(host)).toBe(host);
    for (const ip of ['127.0.0.1', '::1', '10.1.2.3']) expect(server.checkIP(ip)).toBe(ip);
    expect(server.checkHost('other.example.test')).toBeUndefined();
    expect(server.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(server.checkPrivateKey(createPrivateKey(tls.key))).toBe(true);
    expect(createPublicKey(tls.key).asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
    expect(Date.parse(server.validTo)).toBeGreaterThan(Date.now() + 800 * 24 * 60 * 60 * 1000);
  });
});
