// Realtime event names: the GA names this gateway emits, and their beta (`realtime=v1`) spellings for clients that ask for beta.

/** GA server event name → beta name, where they differ. */
const BETA_NAMES: Record<string, string> = {
  'conversation.item.added': 'conversation.item.created',
  'response.output_text.delta': 'response.text.delta',
  'response.output_text.done': 'response.text.done',
  'response.output_audio.delta': 'response.audio.delta',
  'response.output_audio.done': 'response.audio.done',
  'response.output_audio_transcript.delta': 'response.audio_transcript.delta',
  'response.output_audio_transcript.done': 'response.audio_transcript.done',
};

/** GA server events that beta clients never received. */
const GA_ONLY = new Set(['conversation.item.done']);

/** The name to send a server event under; null when the dialect has no such event. */
export function dialectName(type: string, beta: boolean): string | null {
  if (!beta) return type;
  if (GA_ONLY.has(type)) return null;
  return BETA_NAMES[type] ?? type;
}

/** Content part types differ too: GA `output_text`/`output_audio`, beta `text`/`audio`. */
export function dialectPartType(type: 'output_text' | 'output_audio', beta: boolean): string {
  return beta ? type.replace('output_', '') : type;
}

/** True when the upgrade request asked for the beta protocol (header or subprotocol). */
export function wantsBeta(headers: Record<string, string | string[] | undefined>): boolean {
  const header = headers['openai-beta'];
  const protocols = headers['sec-websocket-protocol'];
  return (
    (typeof header === 'string' && /realtime=v1/.test(header)) ||
    (typeof protocols === 'string' && protocols.includes('openai-beta.realtime-v1'))
  );
}
