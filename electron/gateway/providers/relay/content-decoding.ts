// An upstream answer encoded although relay asked for `identity`: a gzip, deflate or br body is decoded as it arrives; any other coding is refused.
import { pipeline, type Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import { GatewayError } from '../../errors.ts';

/** The content codings relay decodes, and the decoder of each (`x-gzip` is gzip's old name). */
const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * `body` as the caller must get it: as it came when `content-encoding` is absent or `identity`, else decoded chunk by
 * chunk (a decoding error breaks the body off, as a broken connection would; the reader's pace holds the decoder back, so
 * memory stays bounded whatever the ratio). Throws a GatewayError for a coding it cannot decode, or more than one
 * coding, without reading the body: passed on raw, it would reach the caller without its `content-encoding` header.
 */
export function decodedBody(body: Readable, contentEncoding: string | null): Readable {
  if (contentEncoding === null) return body;
  const codings = contentEncoding
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return body;
  const decoder = codings.length === 1 ? DECODERS[codings[0]!] : undefined;
  if (!decoder)
    throw new GatewayError('upstream_failed', `answered with content-encoding '${contentEncoding}', which the gateway cannot decode`);
  // A failure on either side destroys both: the reader sees the error, and an abort of the request ends the decoder.
  return pipeline(body, decoder(), () => {});
}
