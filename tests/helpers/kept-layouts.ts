// Kept renders' layouts for tests of the journal's kept answers: long event lines each holding a call's identity, and a call of one as the capture records it.
import type { JournalRecord } from '../../shared/journal.ts';
import { writeAtHoles } from '../../electron/gateway/hole-writes.ts';
import { journalRecord } from './journal.ts';

/** A layout as a kept render lays its bytes out: `lines` event lines each holding the identity (a hole of `identityBytes` bytes), and text of its own (`seed`). */
export function layoutOf(seed: number, identityBytes: number, lines = 30) {
  const hole = 'x'.repeat(identityBytes);
  const text = Array.from(
    { length: lines },
    (_, line) => `data: {"id":"${hole}","object":"chat.completion.chunk","n":${seed},"line":${line},"text":"${'é'.repeat(seed % 7)}"}\n\n`,
  ).join('');
  const bytes = Buffer.from(text);
  const holes: number[] = [];
  for (let at = bytes.indexOf(hole); at >= 0; at = bytes.indexOf(hole, at + identityBytes)) holes.push(at);
  return { bytes, holes, identityBytes };
}

export type TestLayout = ReturnType<typeof layoutOf>;

/** A call answered with `layout`'s render (`id`) and `identity`, as the capture records it, and the text it wrote. */
export function keptRecord(id: number, layout: TestLayout, identity: string): { record: JournalRecord; text: string } {
  const written = Buffer.from(layout.bytes);
  writeAtHoles(written, layout.holes, identity, layout.identityBytes);
  const response = {
    contentType: 'text/event-stream',
    bytes: written.length,
    text: null,
    truncated: false,
    kept: { id, identity, layout },
  };
  return { record: journalRecord({ stream: true, path: '/v1/chat/completions' }, { response }), text: written.toString() };
}

/** The `call`th identity of `size` bytes. */
export const identityOf = (call: number, size: number) => `chatcmpl-${String(call).padStart(size - 9, '0')}`;
