// Bounds of the cassette folder (listed in SECURITY.md's Limits tables).

/** Most cassettes one folder may hold: over it, recording refuses to add more and replay refuses to start. */
export const MAX_CASSETTES = 10_000;

/** Largest cassette JSON file read: bigger answers are recorded as blobs beside it, so a cassette over this is refused as damaged. */
export const MAX_CASSETTE_BYTES = 8 * 1024 * 1024;

/** Largest body kept inline in a cassette (shared with the HTTP tap, which spills past it). */
export { MAX_INLINE_BODY_BYTES } from '../../../../shared/cassette.ts';

/** Largest recorded answer: a bigger one is relayed to the caller but not recorded (the journal notes why); a cassette naming a bigger blob is refused. */
export { MAX_BLOB_BYTES as MAX_RECORDED_BODY_BYTES } from '../../../../shared/cassette.ts';

/** Fastest `--replay-speed` (times the recorded pace); 0 means no waiting at all. */
export const MAX_REPLAY_SPEED = 1000;

/** Most recordings of one model a replayed realtime session reads to choose among by its client frames (the next of the sequence first). */
export const MAX_REALTIME_CANDIDATES = 64;
