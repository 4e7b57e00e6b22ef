// Integration tests of image generation and edits through the official openai SDK: real PNGs of the asked size, URLs, edits with masks.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI, { toFile } from 'openai';
import { decodePng, encodePng } from '../../electron/gateway/providers/simulate/png.ts';
import { useOpenAIGateway } from '../helpers/openai-suite.ts';

describe('images', () => {
  const suite = useOpenAIGateway();

  test('generations return n decodable PNGs of the requested size, deterministically', async () => {
    const result = await suite.client.images.generate({
      model: 'gpt-image-1',
      prompt: 'a red kite over hills',
      n: 2,
      size: '1536x1024',
      response_format: 'b64_json',
    });
    assert.equal(result.data!.length, 2);
    const [a, b] = result.data!.map((item) => decodePng(Buffer.from(item.b64_json!, 'base64')));
    assert.deepEqual([a!.width, a!.height], [1536, 1024]);
    assert.notDeepEqual(a!.rgba, b!.rgba, 'each of n differs');
    const again = await suite.client.images.generate({
      model: 'gpt-image-1',
      prompt: 'a red kite over hills',
      n: 1,
      size: '1536x1024',
      response_format: 'b64_json',
    });
    assert.equal(again.data![0]!.b64_json, result.data![0]!.b64_json);
  });

  test('the url form serves the PNG from the gateway', async () => {
    const result = await suite.client.images.generate({
      model: 'dall-e-3',
      prompt: 'a lighthouse',
      size: '256x256',
      response_format: 'url',
    });
    const response = await fetch(result.data![0]!.url!);
    assert.equal(response.headers.get('content-type'), 'image/png');
    const png = decodePng(Buffer.from(await response.arrayBuffer()));
    assert.deepEqual([png.width, png.height], [256, 256]);
    const unknown = await fetch(result.data![0]!.url!.replace(/\/[A-Za-z0-9]+\.png$/, '/AAAAAAAAAAAAAAAAAAAAAAAA.png'));
    assert.equal(unknown.status, 404);
  });

  test('a bad size or a missing prompt is a BadRequestError naming the parameter', async () => {
    for (const [body, param] of [
      [{ prompt: 'x', size: '10x10' }, 'size'],
      [{ prompt: 'x', size: 'huge' }, 'size'],
      [{ prompt: 'x', n: 11 }, 'n'],
      [{ size: '256x256' }, 'prompt'],
      [{ prompt: 'x', output_format: 'webp' }, 'output_format'],
    ] as const) {
      const error = await suite.client.images.generate(body as never).catch((e: unknown) => e);
      assert.ok(error instanceof OpenAI.BadRequestError, JSON.stringify(body));
      assert.equal(error.param, param);
    }
  });

  test('edits return an image derived from the input; a mask keeps its opaque part unchanged', async () => {
    const width = 64;
    const height = 32;
    const rgba = new Uint8Array(width * height * 4).fill(200);
    const maskRgba = new Uint8Array(width * height * 4);
    for (let i = 0; i < width * height; i++) maskRgba[i * 4 + 3] = i % width < width / 2 ? 255 : 0;
    const image = await toFile(encodePng({ width, height, rgba }), 'in.png', { type: 'image/png' });
    const mask = await toFile(encodePng({ width, height, rgba: maskRgba }), 'mask.png', { type: 'image/png' });
    const result = await suite.client.images.edit({
      model: 'gpt-image-1',
      image,
      mask,
      prompt: 'make it blue',
      response_format: 'b64_json',
    } as never);
    const out = decodePng(Buffer.from(result.data![0]!.b64_json!, 'base64'));
    assert.deepEqual([out.width, out.height], [width, height]);
    const pixel = (x: number) => Array.from(out.rgba.subarray(x * 4, x * 4 + 4));
    assert.deepEqual(pixel(0), [200, 200, 200, 200], 'opaque mask area untouched');
    assert.notDeepEqual(pixel(width - 1), [200, 200, 200, 200], 'transparent mask area edited');
    const resized = await suite.client.images.edit({
      model: 'gpt-image-1',
      image: await toFile(encodePng({ width, height, rgba }), 'in.png', { type: 'image/png' }),
      prompt: 'bigger',
      size: '128x64',
      n: 2,
      response_format: 'b64_json',
    } as never);
    assert.equal(resized.data!.length, 2);
    const big = decodePng(Buffer.from(resized.data![0]!.b64_json!, 'base64'));
    assert.deepEqual([big.width, big.height], [128, 64]);
    const bad = await suite.client.images
      .edit({ image: await toFile(Buffer.from('not a png'), 'x.png', { type: 'image/png' }), prompt: 'x' } as never)
      .catch((e: unknown) => e);
    assert.ok(bad instanceof OpenAI.BadRequestError);
    assert.match(bad.message, /not a PNG/);
  });

  test('each image is billed by its size: $0.016 up to 512x512, $0.02 up to 1024x1024, $0.04 above', async () => {
    const charges = () =>
      suite.gw.gateway.context.db
        .prepare("SELECT endpoint, amount_micros FROM usage_records WHERE endpoint LIKE '/v1/images/%' ORDER BY id")
        .all() as {
        endpoint: string;
        amount_micros: number;
      }[];
    const before = charges().length;
    for (const size of ['256x256', '1024x1024', '1024x1536'] as const) {
      await suite.client.images.generate({ model: 'gpt-image-1', prompt: 'billing', n: 2, size, response_format: 'b64_json' });
    }
    assert.deepEqual(
      charges()
        .slice(before)
        .map((row) => [row.endpoint, row.amount_micros]),
      [
        ['/v1/images/generations', 32_000],
        ['/v1/images/generations', 40_000],
        ['/v1/images/generations', 80_000],
      ],
    );
  });
});
