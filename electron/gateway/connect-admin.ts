// Connect without a running gateway: what the CLI's `connect` command uses (the data dir's tokens and channels, the simulated models).
import type { SecretStore } from './secrets/secret-store.ts';
import { openProductDatabase } from './open-stores.ts';
import { SIM_MODELS } from './providers/simulate/models.ts';
import { ChannelsService } from './services/channels.ts';
import type { ConnectContext } from './services/tool-config/connect.ts';
import type { ModelChoice } from '../../shared/model-suggest.ts';
import { TokensService } from './services/tokens.ts';
import { AccountsRepo } from './storage/accounts-repo.ts';
import { ChannelsRepo } from './storage/channels-repo.ts';
import { TokensRepo } from './storage/tokens-repo.ts';
import { systemClock } from './time.ts';
import type { ToolPlace } from './services/tool-config/tool-files.ts';

/** The context connecting reads from the data dir; call close() when done. */
export interface ConnectAdmin {
  readonly context: ConnectContext;
  close(): void;
}

/** Opens the data dir's database: tokens for the tool's own token, channels (then the simulated chat models) for the suggested model. */
export function openConnectAdmin(dataDir: string, secrets: SecretStore, where: ToolPlace & { baseUrl: string }): ConnectAdmin {
  const db = openProductDatabase(dataDir);
  const channels = new ChannelsService({ repo: new ChannelsRepo(db), secrets, clock: systemClock });
  const models = async (): Promise<ModelChoice[]> => [
    ...channels.listedModels().map((entry) => ({
      id: entry.model,
      chat: true,
      servedBy: [{ kind: 'channel' as const, channel: entry.channel, upstream: entry.kind as 'openai' | 'anthropic' | 'gemini' }],
    })),
    ...SIM_MODELS.filter((model) => model.geminiMethods.includes('generateContent')).map((model) => ({
      id: model.id,
      chat: true,
      servedBy: [{ kind: 'simulator' as const }],
    })),
  ];
  const tokens = new TokensService(new AccountsRepo(db), new TokensRepo(db), systemClock);
  return {
    context: { ...where, tokens, secrets, models, now: () => systemClock.now() },
    close: () => db.close(),
  };
}
