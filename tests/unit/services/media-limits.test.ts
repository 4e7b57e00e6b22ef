// Unit tests of the media limit checks: PNG headers tallied per edit, n × size, speech seconds and WAV headers, each refused with a message naming the limit and the value.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wavFile } from '../../../electron/gateway/providers/simulate/audio-containers.ts';
import { encodePng } from '../../../electron/gateway/providers/simulate/png.ts';
import { GatewayError } from '../../../electron/gateway/errors.ts';
import {
  checkImageOutput,
  checkSpeech,
  checkTranscriptionInput,
  checkTranscriptionSeconds,
  EditInputTally,
  MAX_EDIT_UPLOAD_BYTES,
  MAX_INPUT_IMAGE_PIXELS,
  MAX_INPUT_IMAGES,
  MAX_OUTPUT_PIXELS_PER_REQUEST,
  MAX_SPEECH_INPUT_CHARS,
  MAX_TRANSCRIPTION_SECONDS,
} from '../../../electron/gateway/services/media-limits.ts';

/** Asserts `run` throws a GatewayError of `kind` whose message matches. */
function refuses(run: () => unknown, kind: GatewayError['kind'], message: RegExp, param?: string) {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof GatewayError);
    assert.equal(error.kind, kind);
    assert.match(error.message, message);
    if (param) assert.equal(error.param, param);
    return true;
  });
}

/** Only the 33 header bytes of a PNG of that size: the tally never needs more. */
function pngHeader(width: number, height: number): Buffer {
  const png = encodePng({ width: 1, height: 1, rgba: new Uint8Array(4) });
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  return png.subarray(0, 33);
}

test('an edit tally counts images, one mask, pixels and bytes from the headers', () => {
  const tally = new EditInputTally();
  assert.deepEqual(tally.add('image[]', pngHeader(100, 50)), { width: 100, height: 50, colorType: 6 });
  tally.add('mask', pngHeader(100, 50));
  refuses(() => tally.add('mask', pngHeader(100, 50)), 'invalid_request', /at most one 'mask'/, 'mask');
  refuses(
    () => new EditInputTally().add('image', Buffer.from('GIF89a')),
    'invalid_request',
    /Invalid image file in 'image': not a PNG/,
    'image',
  );
  refuses(
    () => new EditInputTally().add('image', pngHeader(4096, 4096)),
    'payload_too_large',
    new RegExp(`4096x4096 = 16777216 pixels; at most ${MAX_INPUT_IMAGE_PIXELS}`),
    'image',
  );
  const many = new EditInputTally();
  for (let i = 0; i < MAX_INPUT_IMAGES; i++) many.add('image[]', pngHeader(8, 8));
  refuses(() => many.add('image[]', pngHeader(8, 8)), 'invalid_request', new RegExp(`at most ${MAX_INPUT_IMAGES} per edit`), 'image');
  const big = new EditInputTally();
  for (let i = 0; i < 4; i++) big.add('image[]', pngHeader(2048, 2048));
  refuses(() => big.add('image[]', pngHeader(1, 1)), 'payload_too_large', /declare 16777217 pixels together/);
  refuses(
    () => new EditInputTally().add('image', Buffer.alloc(MAX_EDIT_UPLOAD_BYTES + 1)),
    'payload_too_large',
    new RegExp(`larger than ${MAX_EDIT_UPLOAD_BYTES} bytes`),
  );
});

test('n × size is checked against the output pixel limit', () => {
  checkImageOutput(10, 1024, 1024);
  checkImageOutput(4, 2048, 2048);
  refuses(
    () => checkImageOutput(5, 2048, 2048),
    'invalid_request',
    new RegExp(`20971520 pixels; at most ${MAX_OUTPUT_PIXELS_PER_REQUEST}`),
    'n',
  );
});

test('speech is checked by its characters', () => {
  checkSpeech('a'.repeat(MAX_SPEECH_INPUT_CHARS));
  refuses(() => checkSpeech('a'.repeat(MAX_SPEECH_INPUT_CHARS + 1)), 'invalid_request', /at most 4096 characters \(got 4097\)/, 'input');
});

test('a WAV header is checked for its rate, channels and duration; other audio passes to the decoder', () => {
  const ok = wavFile(new Int16Array(16_000), 16_000);
  checkTranscriptionInput(ok);
  checkTranscriptionInput(Buffer.from('ID3 not a wav'));
  for (const rate of [1, 7_999, 192_001, 0xffffffff]) {
    const bad = Buffer.from(ok);
    bad.writeUInt32LE(rate, 24);
    refuses(() => checkTranscriptionInput(bad), 'invalid_request', new RegExp(`sample rate of ${rate} Hz`), 'file');
  }
  const channels = Buffer.from(ok);
  channels.writeUInt16LE(0, 22);
  refuses(() => checkTranscriptionInput(channels), 'invalid_request', /0 channels/);
  const long = Buffer.from(ok);
  long.writeUInt32LE(8_000, 24);
  long.writeUInt16LE(8, 34);
  checkTranscriptionInput(long);
  checkTranscriptionSeconds(MAX_TRANSCRIPTION_SECONDS);
  refuses(() => checkTranscriptionSeconds(MAX_TRANSCRIPTION_SECONDS + 0.5), 'invalid_request', /lasts 1501 s; at most 1500 s/, 'file');
});
