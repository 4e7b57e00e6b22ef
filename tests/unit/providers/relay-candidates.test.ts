// Unit tests of the relay's channel candidates over several kinds: a directory that answers at once may throw at once, and no other kind's promise is then left without a handler.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { translatedEmbeddings } from '../../../electron/gateway/providers/relay/translate/embeddings.ts';
import type { ChannelDirectory } from '../../../electron/gateway/providers/types.ts';

test('embeddings over two kinds whose directory fails (one kind later, one at once) refuse the call and leave no rejection unhandled', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    // A key read from the store for one kind, a failed write (the disk full) at once for the other.
    const full = () => new Error('SQLITE_FULL: database or disk is full');
    const directory = {
      kindsServing: () => ['openai', 'gemini'],
      wiresServing: () => [],
      candidates: (_model: string, kind: string) => {
        if (kind === 'openai') return new Promise((_, reject) => setTimeout(() => reject(full()), 10));
        throw full();
      },
      record: () => {},
      listedModels: () => [],
    } as unknown as ChannelDirectory;
    const provider = translatedEmbeddings(directory, 'm', ['openai', 'gemini'])!;
    await assert.rejects(provider.embed({ model: 'm', inputs: ['x'] }, { signal: new AbortController().signal } as never), /SQLITE_FULL/);
    // The slower kind's rejection comes 10 ms later; wait well past it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(unhandled, [], 'no rejection is left unhandled (Node exits the process on one)');
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
