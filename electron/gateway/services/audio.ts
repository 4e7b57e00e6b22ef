// Audio calls: speech and transcription checked against the media limits, done by the call's provider, and charged by characters or seconds.
import { countTokens } from '../protocols/neutral/tokens.ts';
import type { CallContext, ProviderSelector, RelayedUsage, SpeechFormat, Transcript } from '../providers/types.ts';
import type { BillingService } from './billing.ts';
import { checkSpeech, checkTranscriptionInput, checkTranscriptionSeconds } from './media-limits.ts';
import { speechPriceMicros, transcriptionPriceMicros } from './pricing.ts';
import { boundUsage, DEFAULT_OUTPUT_BOUND, INPUT_SLACK_TOKENS } from './usage-bounds.ts';

/** Audio input tokens an upstream may count per second of audio before its count is not believed (this gateway reports AUDIO_TOKENS_PER_SECOND; others count more). */
const AUDIO_TOKENS_BOUND_PER_SECOND = 50;

/** Audio input tokens reported (and recorded) per second of transcribed audio. */
const AUDIO_TOKENS_PER_SECOND = 10;

/** A transcript and the tokens it was billed with. */
export interface BilledTranscript {
  transcript: Transcript;
  tokens: { input_tokens: number; output_tokens: number };
}

export class AudioService {
  private readonly providers: ProviderSelector;
  private readonly billing: BillingService;
  constructor(providers: ProviderSelector, billing: BillingService) {
    this.providers = providers;
    this.billing = billing;
  }

  /** `input` spoken as `format`, charged per character. */
  async speak(request: { model: string; input: string; voice: string; speed: number; format: SpeechFormat }, call: CallContext) {
    checkSpeech(request.input);
    const audio = await this.providers.for(call, request.model).speech.speak(request, call);
    this.chargeSpeech(request, call);
    return audio;
  }

  /** Charges speech of `input` per character (also for a relayed call, whose audio is passed on unread). */
  chargeSpeech(request: { model: string; input: string }, call: CallContext): void {
    this.billing.charge(call.principal, {
      endpoint: call.endpoint,
      model: request.model,
      inputTokens: countTokens(request.input),
      outputTokens: 0,
      amountMicros: speechPriceMicros([...request.input].length),
    });
  }

  /**
   * Charges a relayed transcription from the upstream's usage: the seconds it heard (a duration usage) or its audio input
   * tokens (read as seconds at the rate this gateway reports them); output tokens are the upstream's or the transcript's count.
   */
  chargeRelayedTranscript(model: string, reported: RelayedUsage, call: CallContext, seconds: { held: number; most: number }): void {
    // Nothing past what the upload can hold is believed: `seconds.most` and its tokens (at a generous rate, and the
    // prompt's), and for the output the transcript's tokens plus the most an answer is allowed; nor a count that is no
    // count (NaN: negative, fractional, a string). A figure reported and not believed is estimated from the seconds the
    // call held, and the call's journal note says so.
    const told = reported.audioSeconds;
    // `told >= 0` is false for NaN too.
    const heard = told === undefined || (told >= 0 && told <= seconds.most) ? told : seconds.held;
    if (heard !== told)
      call.principal.notes?.note(
        `Upstream audio seconds out of bounds (${String(told)}); charged ${seconds.held} s, what the upload was held for.`,
      );
    const usage = boundUsage(
      { inputTokens: believable(reported.inputTokens), outputTokens: believable(reported.outputTokens) },
      () => ({
        input: Math.ceil(seconds.most * AUDIO_TOKENS_BOUND_PER_SECOND) + INPUT_SLACK_TOKENS,
        output: reported.delivered.tokens + DEFAULT_OUTPUT_BOUND,
      }),
      // An answer that reported no length at all (a `text` or `srt` format's) is charged none, as its upstream counts it.
      {
        input: () => Math.ceil((heard ?? (reported.inputTokens === undefined ? 0 : seconds.held)) * AUDIO_TOKENS_PER_SECOND),
        output: () => reported.delivered.tokens,
      },
    );
    if (usage.note !== undefined) call.principal.notes?.note(usage.note);
    this.billing.chargeAnswered(call.principal, {
      endpoint: call.endpoint,
      model,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      amountMicros: transcriptionPriceMicros(heard ?? Math.min(seconds.most, usage.inputTokens / AUDIO_TOKENS_PER_SECOND)),
    });
  }

  /** What an uploaded audio file says (in English for `translate`), charged per second of audio once it is within the limit. */
  async transcribe(
    request: { model: string; task: 'transcribe' | 'translate'; bytes: Buffer; fileName: string; language?: string; prompt?: string },
    call: CallContext,
  ): Promise<BilledTranscript> {
    checkTranscriptionInput(request.bytes);
    const transcript = await this.providers.for(call, request.model).transcription.transcribe(request, call);
    checkTranscriptionSeconds(transcript.duration);
    const tokens = { input_tokens: Math.ceil(transcript.duration * AUDIO_TOKENS_PER_SECOND), output_tokens: countTokens(transcript.text) };
    this.billing.charge(call.principal, {
      endpoint: call.endpoint,
      model: request.model,
      inputTokens: tokens.input_tokens,
      outputTokens: tokens.output_tokens,
      amountMicros: transcriptionPriceMicros(transcript.duration),
    });
    return { transcript, tokens };
  }
}

/** A reported token count when it is a whole non-negative number, else undefined (estimated instead). */
const believable = (count: number | undefined): number | undefined =>
  count !== undefined && Number.isSafeInteger(count) && count >= 0 ? count : undefined;
