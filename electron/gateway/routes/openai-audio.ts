// POST /v1/audio/speech, /v1/audio/transcriptions and /v1/audio/translations (multipart): parse, work through the call's provider (billed), render json, text, verbose_json, srt, vtt or a stream; or relay the call (a form streamed on) to a channel.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { invalid } from '../errors.ts';
import type { Fields } from '../protocols/fields.ts';
import {
  parseSpeechRequest,
  parseTranscriptionRequest,
  renderTranscript,
  speechContentType,
  transcriptEvents,
} from '../protocols/openai/inbound/audio.ts';
import type { RelayedUsage } from '../providers/types.ts';
import { callOf } from '../server/call-context.ts';
import { relayReply } from '../server/relay-reply.ts';
import { streamFailure } from '../server/stream-failure.ts';
import { FormRelay } from '../server/form-relay.ts';
import { formLimits } from '../server/multipart.ts';
import { writeSse } from '../server/sse.ts';
import { paced, paceOfHeaders } from '../protocols/pace.ts';
import { checkSpeech, MAX_UPLOAD_FILE_BYTES, uploadLimitError } from '../services/media-limits.ts';
import { speechPriceMicros, transcriptionPriceMicros } from '../services/pricing.ts';
import { transcriptionHeardSeconds, transcriptionHoldSeconds } from '../services/transcription-hold.ts';

export async function audioRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { audio, billing, events, providers } = options.context;
  const failure = streamFailure('openai', (error) => void events.emit('error', error));
  await app.register(multipart, { limits: formLimits(1, MAX_UPLOAD_FILE_BYTES) });

  app.post('/v1/audio/speech', async (request, reply) => {
    const asked = parseSpeechRequest(request.body);
    const call = callOf(request, reply, 'openai', '/v1/audio/speech');
    // The speech asked, at its price per character, is held against the token's quota until it was charged.
    const held = billing.reserve(request.principal, () => ({
      model: asked.model,
      inputTokens: 0,
      outputTokens: 0,
      amountMicros: speechPriceMicros([...asked.input].length),
    }));
    return held.during(async () => {
      const { passthrough } = providers.for(call, asked.model);
      if (passthrough) {
        checkSpeech(asked.input);
        const forward = { operation: 'speech', model: asked.model, stream: false } as const;
        return relayReply(request, reply, passthrough, forward, call, failure, () => audio.chargeSpeech(asked, call));
      }
      const made = await audio.speak(asked, call);
      return reply.type(speechContentType(asked.format)).send(Buffer.from(made.buffer, made.byteOffset, made.byteLength));
    });
  });

  /** Holds `seconds` of transcription of `model`, at their price, against the caller's quota until they were charged. */
  const holdTranscription = (request: FastifyRequest, model: string, seconds: number) =>
    billing.reserve(request.principal, () => ({ model, inputTokens: 0, outputTokens: 0, amountMicros: transcriptionPriceMicros(seconds) }));

  const transcriptionRoute = (task: 'transcribe' | 'translate', endpoint: string) =>
    app.post(endpoint, async (request, reply) => {
      if (!request.isMultipart()) throw invalid('Send the audio as multipart/form-data with a `file` and a `model`.', 'file');
      const form = new FormRelay(request, MAX_UPLOAD_FILE_BYTES);
      const model = await form.model().catch((error: unknown) => {
        throw uploadLimitError(error);
      });
      const call = callOf(request, reply, 'openai', endpoint);
      const { passthrough } = model === undefined ? {} : providers.for(call, model);
      if (passthrough && model !== undefined) {
        const operation = task === 'transcribe' ? 'transcriptions' : 'translations';
        const forward = { operation, model, stream: form.fields['stream'] === 'true', form: form.upstream() } as const;
        // Held before the form goes on, for the most audio its length can carry (the file is streamed on unread); the
        // upstream's usage is believed up to that much.
        const length = Number(request.headers['content-length']);
        const bytes = Number.isSafeInteger(length) && length >= 0 ? Math.min(length, MAX_UPLOAD_FILE_BYTES) : MAX_UPLOAD_FILE_BYTES;
        const seconds = { held: transcriptionHoldSeconds(bytes), most: transcriptionHeardSeconds(bytes) };
        const charge = (usage: RelayedUsage) => audio.chargeRelayedTranscript(model, usage, call, seconds);
        return holdTranscription(request, model, seconds.held)
          .during(() => relayReply(request, reply, passthrough, forward, call, failure, charge))
          .catch((error: unknown) => {
            throw uploadLimitError(form.error ?? error);
          });
      }
      const { fields, granularities, file } = await readAudioForm(form).catch((error: unknown) => {
        throw uploadLimitError(error);
      });
      const asked = parseTranscriptionRequest(task, fields, granularities, file);
      const { language, prompt } = asked;
      const held = holdTranscription(request, asked.model, transcriptionHoldSeconds(asked.file.bytes.length, asked.file.bytes));
      const { transcript, tokens } = await held.during(() =>
        audio.transcribe(
          {
            model: asked.model,
            task,
            bytes: asked.file.bytes,
            fileName: asked.file.name,
            ...(language !== undefined && { language }),
            ...(prompt !== undefined && { prompt }),
          },
          call,
        ),
      );
      // Paced like chat answers for `x-gatehouse-pace`, so a client's handling of a slow transcript stream can be tested.
      if (asked.stream)
        return writeSse(request, reply, paced(transcriptEvents(transcript.text, tokens), paceOfHeaders(request.headers), call.signal));
      const rendered = renderTranscript(task, asked, transcript);
      return 'json' in rendered ? rendered.json : reply.type(rendered.contentType).send(rendered.text);
    });
  transcriptionRoute('transcribe', '/v1/audio/transcriptions');
  transcriptionRoute('translate', '/v1/audio/translations');
}

/** The fields, timestamp granularities and file of a transcription form. */
async function readAudioForm(form: FormRelay) {
  const fields: Fields = {};
  const granularities: unknown[] = [];
  let file: { bytes: Buffer; name: string } | undefined;
  for await (const part of form.parts()) {
    if (part.kind === 'file') file = { bytes: part.bytes, name: part.filename };
    else if (part.field === 'timestamp_granularities[]') granularities.push(part.value);
    else fields[part.field] = part.value;
  }
  return { fields, granularities, file };
}
