// Test helper: a small client of the portrait endpoints that returns the envelope and HTTP status.
import { request, type JsonResponse } from './gateway.ts';

export interface PortraitClient {
  createGroup(body: unknown): Promise<JsonResponse>;
  listGroups(query?: string): Promise<JsonResponse>;
  updateGroup(groupId: string, body: unknown): Promise<JsonResponse>;
  createAsset(body: unknown): Promise<JsonResponse>;
  listAssets(query?: string): Promise<JsonResponse>;
  getAsset(assetId: string): Promise<JsonResponse>;
  updateAsset(assetId: string, body: unknown): Promise<JsonResponse>;
}

export function portraitClient(url: string, token: string): PortraitClient {
  const base = `${url}/v1/portrait`;
  const send = (method: string, path: string, body?: unknown) =>
    request(`${base}${path}`, method, { token, ...(body !== undefined && { body }) });
  return {
    createGroup: (body) => send('POST', '/groups', body),
    listGroups: (query = '') => send('GET', `/groups${query}`),
    updateGroup: (groupId, body) => send('PUT', `/groups/${encodeURIComponent(groupId)}`, body),
    createAsset: (body) => send('POST', '/assets', body),
    listAssets: (query = '') => send('GET', `/assets${query}`),
    getAsset: (assetId) => send('GET', `/assets/${encodeURIComponent(assetId)}`),
    updateAsset: (assetId, body) => send('PUT', `/assets/${encodeURIComponent(assetId)}`, body),
  };
}

/** Asserts the success envelope and returns its data. */
export function dataOf(response: JsonResponse): any {
  if (response.status !== 200 || response.body?.success !== true || response.body?.message !== '') {
    throw new Error(`expected a success envelope, got HTTP ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return response.body.data;
}

/** Asserts the failure envelope (HTTP 200 unless given) with no data, and returns its message. */
export function failureOf(response: JsonResponse, status = 200): string {
  const body = response.body;
  const keys = body && typeof body === 'object' ? Object.keys(body).sort().join(',') : '';
  if (response.status !== status || body?.success !== false || typeof body.message !== 'string' || keys !== 'message,success') {
    throw new Error(`expected a failure envelope with HTTP ${status}, got HTTP ${response.status}: ${JSON.stringify(body)}`);
  }
  return body.message;
}
