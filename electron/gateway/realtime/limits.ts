// Size limits of a realtime session: one client event, one conversation item, the input audio buffer and the whole conversation.

const MiB = 1024 * 1024;

/** Bounds on what one realtime session keeps in memory; the numbers the docs and tests use. */
export const REALTIME_LIMITS = {
  /** Largest client event (one WebSocket message), in bytes: room for a 15 MiB audio append in base64. Over it the socket closes with 1009. */
  eventBytes: 24 * MiB,
  /** Largest conversation item (its JSON plus its decoded 24 kHz audio), in bytes; a bigger client item gets an `error` event. */
  itemBytes: 16 * MiB,
  /** Most decoded audio the input buffer holds before a commit (about 5.8 minutes at 24 kHz); an append beyond it gets an `error` event. */
  inputBufferBytes: 16 * MiB,
  /** Most items the conversation keeps; beyond it the oldest are dropped (each announced by `conversation.item.deleted`). */
  conversationItems: 1000,
  /** Most bytes (items' JSON plus decoded audio) the conversation keeps; beyond it the oldest items are dropped. */
  conversationBytes: 64 * MiB,
} as const;
