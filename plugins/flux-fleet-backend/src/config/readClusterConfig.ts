import type { Config } from '@backstage/config';
import { ENVIRONMENT_NAME } from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterAuth, ClusterConfig } from './FleetConfig';
import { FleetConfigError } from './FleetConfigError';

/** Cluster names appear in object keys (`cluster/namespace/kind/name`), URLs and comma-separated filters. */
const CLUSTER_NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$/;

const AUTH_KEYS = [
  'serviceAccountToken',
  'kubeconfig',
  'inCluster',
  'clientCert',
] as const;

/** Reads and checks one cluster entry in the shape of `fluxFleet.clusters[]`; `key` names it in messages. */
export function readClusterConfig(c: Config, key: string): ClusterConfig {
  const name = c.getString('name');
  if (!CLUSTER_NAME.test(name)) {
    throw new FleetConfigError(
      `${key}.name`,
      `'${name}' is not a usable cluster name: use 1 to 63 letters, digits, '.', '_' or '-', starting and ending with a letter or digit`,
    );
  }
  const given = AUTH_KEYS.filter(k => c.has(k));
  if (given.length > 1) {
    throw new FleetConfigError(
      key,
      `cluster '${name}' has ${given
        .map(k => `'${k}'`)
        .join(' and ')}; give exactly one way to authenticate`,
    );
  }
  const auth = readAuth(c, key, name, given[0]);
  const url = c.getOptionalString('url');
  if (url !== undefined) {
    checkUrl(url, `${key}.url`);
  } else if (auth.type !== 'kubeconfig' && auth.type !== 'inCluster') {
    throw new FleetConfigError(
      key,
      `cluster '${name}' needs 'url' (the API server, e.g. https://api.${name}:6443) with 'serviceAccountToken' or 'clientCert', or 'kubeconfig: { path, context }', or 'inCluster: true'`,
    );
  }
  const caData = c.getOptionalString('caData');
  const caFile = c.getOptionalString('caFile');
  if (caData !== undefined && caFile !== undefined) {
    throw new FleetConfigError(
      key,
      `cluster '${name}' has both 'caData' and 'caFile'; give one`,
    );
  }
  if (caData !== undefined && !looksLikeBase64(caData)) {
    throw new FleetConfigError(
      `${key}.caData`,
      `should be the base64-encoded PEM certificate of the cluster's CA (as in a kubeconfig's certificate-authority-data)`,
    );
  }
  const environment = c.getOptionalString('environment')?.trim();
  if (environment !== undefined && !ENVIRONMENT_NAME.test(environment)) {
    throw new FleetConfigError(
      `${key}.environment`,
      `'${environment}' is not a usable environment for cluster '${name}': use 1 to 63 letters, digits, '.', '_' or '-' (e.g. prod, staging)`,
    );
  }
  return {
    name,
    ...(environment && { environment }),
    url: url?.replace(/\/+$/, ''),
    auth,
    caData,
    caFile,
    skipTLSVerify: c.getOptionalBoolean('skipTLSVerify') ?? false,
    configKey: key,
  };
}

function readAuth(
  c: Config,
  key: string,
  name: string,
  form: (typeof AUTH_KEYS)[number] | undefined,
): ClusterAuth {
  switch (form) {
    case 'serviceAccountToken': {
      const token = c.getString('serviceAccountToken').trim();
      if (!token) {
        throw new FleetConfigError(
          `${key}.serviceAccountToken`,
          `is empty for cluster '${name}' (is the environment variable it refers to set?)`,
        );
      }
      return { type: 'serviceAccountToken', token };
    }
    case 'kubeconfig': {
      const path = c.getString('kubeconfig.path');
      if (!path.trim()) {
        throw new FleetConfigError(`${key}.kubeconfig.path`, 'is empty');
      }
      return {
        type: 'kubeconfig',
        path,
        context: c.getOptionalString('kubeconfig.context'),
      };
    }
    case 'inCluster':
      if (!c.getBoolean('inCluster')) {
        throw new FleetConfigError(
          `${key}.inCluster`,
          `is false for cluster '${name}'; leave it out, or give another way to authenticate`,
        );
      }
      return { type: 'inCluster' };
    case 'clientCert': {
      const cert = {
        certData: c.getOptionalString('clientCert.certData'),
        certFile: c.getOptionalString('clientCert.certFile'),
        keyData: c.getOptionalString('clientCert.keyData'),
        keyFile: c.getOptionalString('clientCert.keyFile'),
      };
      if ((cert.certData === undefined) === (cert.certFile === undefined)) {
        throw new FleetConfigError(
          `${key}.clientCert`,
          `give exactly one of 'certData' (base64 PEM) and 'certFile' for cluster '${name}'`,
        );
      }
      if ((cert.keyData === undefined) === (cert.keyFile === undefined)) {
        throw new FleetConfigError(
          `${key}.clientCert`,
          `give exactly one of 'keyData' (base64 PEM) and 'keyFile' for cluster '${name}'`,
        );
      }
      return { type: 'clientCert', ...cert };
    }
    default:
      return { type: 'anonymous' };
  }
}

function checkUrl(url: string, key: string) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new FleetConfigError(
      key,
      `'${url}' is not a URL; write the API server's address, e.g. https://api.example.com:6443`,
    );
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new FleetConfigError(
      key,
      `'${url}' should start with https:// (or http:// for a kubectl proxy)`,
    );
  }
  if (parsed.username || parsed.password) {
    throw new FleetConfigError(
      key,
      'should not contain credentials; use serviceAccountToken or clientCert',
    );
  }
}

function looksLikeBase64(value: string): boolean {
  return /^[A-Za-z0-9+/=\s]+$/.test(value);
}
