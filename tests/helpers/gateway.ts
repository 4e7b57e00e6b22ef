// Test helper: a real gateway on port 0 in a fresh temp data dir, with its first token, and a small fetch wrapper.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGateway, type Gateway, type GatewayConfig } from '../../electron/gateway/index.ts';
import { noSecretStore } from '../../electron/gateway/secrets/secret-store.ts';

export interface TestGateway {
  gateway: Gateway;
  url: string;
  /** The `local` account's first token. */
  token: string;
  dataDir: string;
  /** Stops the gateway; removes the data dir unless `keepData`. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/** A fresh temp dir for a test's data. */
export function tempDataDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'gatehouse-test-'));
}

/** Temp data dirs for a test file: `fresh()` makes one, `removeAll()` (from an after hook) removes every one made so far. */
export function tempDirs() {
  const dirs: string[] = [];
  return {
    fresh(): string {
      const dir = tempDataDir();
      dirs.push(dir);
      return dir;
    },
    removeAll(): void {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The gateways of this process that are started and not yet stopped. */
const running = new Set<TestGateway>();

/** The gateways this process runs now (`startGateway`'s, until stopped). */
export function runningGateways(): readonly TestGateway[] {
  return [...running];
}

export async function startGateway(overrides: Partial<GatewayConfig> = {}): Promise<TestGateway> {
  const dataDir = overrides.dataDir ?? tempDataDir();
  const gateway = await createGateway({ secrets: noSecretStore, port: 0, ...overrides, dataDir });
  const { url, firstToken } = await gateway.start();
  const started: TestGateway = {
    gateway,
    url,
    token: firstToken ?? '',
    dataDir,
    async stop(options = {}) {
      running.delete(started);
      await gateway.stop();
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  running.add(started);
  return started;
}

/** A JSON HTTP answer. */
export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Sends `body` as JSON (or as given when it is a string) and parses the JSON answer. */
export async function request<T = any>(
  url: string,
  method: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url, { method, headers, ...(body !== undefined && { body }) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

/** The admin API of `server` as one function: `admin('POST', '/channels', body)` sends `body` with the gateway's admin token. */
export function adminApi(server: TestGateway): (method: string, path: string, body?: unknown) => Promise<JsonResponse> {
  return (method, path, body) =>
    request(`${server.url}/admin/api${path}`, method, { token: server.gateway.adminToken, ...(body !== undefined && { body }) });
}
