// Integration tests of generated-file serving: files are found by opaque id in their own folder only; links planted in the files folder are never followed.
import assert from 'node:assert/strict';
import { linkSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { request, startGateway, tempDataDir, type TestGateway } from '../helpers/gateway.ts';

const SECRET = 'private key of another program\n';

describe('generated files', () => {
  let gw: TestGateway;
  let client: OpenAI;
  let outside: string;
  before(async () => {
    gw = await startGateway({ sim3dMs: 0 });
    client = new OpenAI({ apiKey: gw.token, baseURL: `${gw.url}/v1` });
    outside = tempDataDir();
    writeFileSync(path.join(outside, 'secret.txt'), SECRET);
  });
  after(async () => {
    await gw.stop();
    rmSync(outside, { recursive: true, force: true });
  });

  /** Makes an image and returns its URL and the path of its file. */
  const makeImage = async () => {
    const url = (await client.images.generate({ prompt: 'a kite', size: '64x64', response_format: 'url' })).data![0]!.url!;
    return { url, file: path.join(gw.dataDir, 'files', 'images', url.split('/').pop()!) };
  };

  const assertNotServed = async (url: string, what: string) => {
    const response = await fetch(url);
    const text = await response.text();
    assert.equal(response.status, 404, what);
    assert.ok(!text.includes(SECRET.trim()), `${what}: the linked file's content is not served`);
    assert.equal(typeof JSON.parse(text).error.message, 'string', `${what}: an OpenAI error object`);
  };

  test('a symbolic link put in place of an image is not followed: 404 in the OpenAI error shape', async () => {
    const { url, file } = await makeImage();
    assert.equal((await fetch(url)).headers.get('content-type'), 'image/png', 'served by its id until then');
    rmSync(file);
    symlinkSync(path.join(outside, 'secret.txt'), file);
    await assertNotServed(url, 'symlinked image');
  });

  test('a hard link put in place of an image is not served either', async () => {
    const { url, file } = await makeImage();
    rmSync(file);
    linkSync(path.join(outside, 'secret.txt'), file);
    await assertNotServed(url, 'hard-linked image');
  });

  test('a files/images folder replaced by a link to another folder is not followed', async () => {
    const { url, file } = await makeImage();
    const foreign = path.join(outside, 'images');
    mkdirSync(foreign);
    writeFileSync(path.join(foreign, path.basename(file)), SECRET);
    const folder = path.dirname(file);
    renameSync(folder, `${folder}.real`);
    symlinkSync(foreign, folder);
    try {
      await assertNotServed(url, 'linked folder');
    } finally {
      rmSync(folder);
      renameSync(`${folder}.real`, folder);
    }
  });

  test('a 3D result file replaced by a symbolic link is not followed', async () => {
    const task = await request(`${gw.url}/v1/3d/generations`, 'POST', { token: gw.token, body: { prompt: 'a teapot', format: 'obj' } });
    const url: string = (await request(`${gw.url}/v1/3d/generations/${task.body.task_id}`, 'GET', { token: gw.token })).body.files[0].url;
    assert.equal((await fetch(url)).status, 200);
    const file = path.join(gw.dataDir, 'files', '3d', url.split('/').pop()!);
    rmSync(file);
    symlinkSync(path.join(outside, 'secret.txt'), file);
    await assertNotServed(url, 'symlinked 3D file');
  });
});
