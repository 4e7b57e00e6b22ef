// Wires the provider seam: the simulate bundle, fixtures and cassettes behind the selector, and the service channels.
import type { CassetteAdmin } from '../../shared/cassette-admin.ts';
import type { ContextOptions } from './context-options.ts';
import { FixtureStore } from './providers/fixtures/store.ts';
import { openCassettes } from './providers/replay/deck.ts';
import { CassetteFolderAdmin } from './providers/replay/folder-admin.ts';
import { workTapes } from './providers/replay/work-choice.ts';
import { ProviderChoice } from './providers/select.ts';
import { ServiceChoice } from './providers/service-choice.ts';
import { createSimulateProviders } from './providers/simulate/index.ts';
import { SimulatedReviewer } from './providers/simulate/reviewer.ts';
import { SimReviewsRepo } from './providers/simulate/reviews-repo.ts';
import type { CassetteDeck, ProviderSelector, Reviewer } from './providers/types.ts';
import type { ChannelsService } from './services/channels.ts';
import { limitToTokenModels } from './services/token-models.ts';
import type { OffsetClock } from './time.ts';
import type { MediaPool } from './workers/media-pool.ts';

/** What the provider wiring builds: the selector every call goes through, and what the context keeps beside it. */
export interface ProviderWiring {
  /** Limited to each token's models; the test-only `providers` option when given. */
  providers: ProviderSelector;
  /** The portrait reviewer and 3D platform channels of the channel store. */
  services: ServiceChoice;
  fixtures: FixtureStore;
  cassettes: CassetteDeck;
  cassetteFolder: CassetteAdmin;
}

/** The parts of the context the provider wiring reads. */
export interface ProviderWiringDeps {
  clock: OffsetClock;
  media: MediaPool;
  channels: ChannelsService;
  reportError: (error: unknown) => void;
}

/** The simulated reviewer on the simulator's store. */
function simulatedReviewer(options: ContextOptions): Reviewer {
  if (!options.simulateDb) throw new Error('createContext needs simulateDb (the simulator store) or a reviewer');
  return new SimulatedReviewer({ repo: new SimReviewsRepo(options.simulateDb), clock: options.clock, reviewMs: options.simReviewMs });
}

/** Opens the run's cassettes (a folder over its bounds throws) and builds the selector and the service channels. */
export function wireProviders(options: ContextOptions, { clock, media, channels, reportError }: ProviderWiringDeps): ProviderWiring {
  const fixtures = options.fixtures ?? new FixtureStore();
  const cassettes = openCassettes({ ...options.cassetteOptions, clock, report: reportError });
  // Portrait reviews and 3D tasks are recorded on the service channels and (with --record-simulated) the simulator alike.
  const tapes = workTapes(cassettes.deck, clock, reportError);
  // Every call that names a model passes the token's model limit first (tests' providers too).
  const providers = limitToTokenModels(
    options.providers ??
      new ProviderChoice(
        createSimulateProviders({
          clock,
          media,
          reviewer: options.reviewer ?? simulatedReviewer({ ...options, clock }),
          sim3dMs: options.sim3dMs,
          modelAliases: options.modelAliases ?? {},
        }),
        {
          channels: cassettes.watch(options.channels ?? channels),
          ...(options.unrouted && { unrouted: options.unrouted }),
          created: Math.floor(clock.now() / 1000),
          fixtures,
          strict: options.strict ?? false,
          clock,
          ...(cassettes.routing && { replay: cassettes.routing }),
          cassettes: cassettes.deck,
          ...(tapes && { tapes }),
        },
      ),
  );
  // The portrait reviewer and 3D platform channels come from the channel store (platform and volcengine kinds).
  const services = new ServiceChoice({ channels: cassettes.watchServices(channels), now: () => clock.now(), ...(tapes && { tapes }) });
  return {
    providers,
    services,
    fixtures,
    cassettes: cassettes.deck,
    cassetteFolder: options.cassetteFolder ?? new CassetteFolderAdmin({}, () => {}),
  };
}
