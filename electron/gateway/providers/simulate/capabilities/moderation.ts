// The simulated moderation provider: each input judged by the trigger-word model, on the event loop (the work is linear in the text, which the body limit bounds).
import type { ModerationPart, ModerationProvider, ModerationVerdict } from '../../types.ts';
import { moderate } from '../moderation.ts';

export class SimulatedModeration implements ModerationProvider {
  async classify(request: { inputs: readonly (readonly ModerationPart[])[] }): Promise<ModerationVerdict[]> {
    return request.inputs.map(moderate);
  }
}
