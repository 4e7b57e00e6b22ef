// Moderation calls: the request checked, classified by the call's provider, rendered; free, as on the real API (shared by the route and batch lines).
import { publicId } from '../ids.ts';
import { parseModerationRequest, renderModerations } from '../protocols/openai/inbound/moderations.ts';
import type { CallContext, ProviderSelector } from '../providers/types.ts';

export class ModerationService {
  private readonly providers: ProviderSelector;
  constructor(providers: ProviderSelector) {
    this.providers = providers;
  }

  /** The moderation answer to `body`, or a 400 naming the bad field. */
  async moderate(body: unknown, call: CallContext) {
    const asked = parseModerationRequest(body);
    const verdicts = await this.providers.for(call, asked.model).moderation.classify(asked, call);
    return renderModerations(publicId('modr'), asked.model, verdicts);
  }
}
