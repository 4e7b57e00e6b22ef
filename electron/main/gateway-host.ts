// Runs the gateway for the desktop app: start on the preferred port (or a free one), pause, resume, stop, and tell listeners.
import type { DesktopConnection } from '../../shared/ipc.ts';
import { DataDirError, type Gateway, type GatewayConfig } from '../gateway/index.ts';

export interface GatewayHostOptions {
  /** The gateway's configuration; read again by restart(). */
  config: () => Promise<GatewayConfig>;
  create: (config: GatewayConfig) => Promise<Gateway>;
  /** Called after every change of state. */
  onChange: (connection: DesktopConnection) => void;
}

const isAddressInUse = (error: unknown) => (error as { code?: unknown })?.code === 'EADDRINUSE';

export class GatewayHost {
  private readonly options: GatewayHostOptions;
  private gateway: Gateway | undefined;
  private url: string | null = null;
  /** The last URL the gateway listened on, kept while paused (the window's page still comes from there). */
  private lastUrl: string | null = null;
  private paused = false;
  private problem: string | null = null;
  /** The ports to come back to after a pause. */
  private port: number;
  private tlsPort: number | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private config: GatewayConfig | undefined;
  /** The per-launch admin token, kept across restarts so the window's page stays signed in. */
  readonly adminToken: string;

  constructor(options: GatewayHostOptions & { adminToken: string }) {
    this.options = options;
    this.adminToken = options.adminToken;
    this.port = 0;
  }

  /** Where the console was last served from, also while paused. */
  get lastGatewayUrl(): string | null {
    return this.lastUrl;
  }

  connection(): DesktopConnection {
    return { gatewayUrl: this.url, adminToken: this.adminToken, paused: this.paused, problem: this.problem };
  }

  /** Starts the gateway (reading its configuration the first time); a taken port falls back to a free one. */
  start(): Promise<DesktopConnection> {
    return this.serial(async () => {
      if (!this.config) await this.configure();
      await this.openWithFallback();
    });
  }

  /**
   * Stops the gateway, reads the configuration again (saved settings included) and starts it. When the new
   * configuration cannot start (say, a host address this machine does not have), the previous one runs again
   * and the error says why, so the console stays reachable to fix the setting.
   */
  restart(): Promise<DesktopConnection> {
    return this.serial(async () => {
      const previous = { config: this.config, port: this.port, tlsPort: this.tlsPort };
      await this.close();
      try {
        await this.configure();
        await this.openWithFallback();
      } catch (error) {
        this.config = previous.config;
        this.port = previous.port;
        this.tlsPort = previous.tlsPort;
        if (this.config) await this.openWithFallback();
        throw new Error(
          `The server could not start with the saved settings (${error instanceof Error ? error.message : String(error)}); it runs with the previous ones again`,
        );
      }
    });
  }

  pause(): Promise<DesktopConnection> {
    return this.serial(async () => {
      this.paused = true;
      await this.close();
    });
  }

  resume(): Promise<DesktopConnection> {
    return this.paused ? this.start() : Promise.resolve(this.connection());
  }

  /** Stops for good (quit). */
  stop(): Promise<DesktopConnection> {
    return this.serial(() => this.close());
  }

  /** Reports a start failure in words the user can act on (a data dir problem already says what to do). */
  fail(error: unknown): void {
    const advice =
      error instanceof DataDirError ? '' : ' Quit and start Gatehouse again; if it persists, check the data folder is writable.';
    const message = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
    this.problem = `The server could not start: ${message}.${advice}`;
    this.options.onChange(this.connection());
  }

  private async configure(): Promise<void> {
    this.config = { ...(await this.options.config()), adminToken: this.adminToken };
    this.port = this.config.port ?? 0;
    this.tlsPort = this.config.tlsPort ?? null;
  }

  private async openWithFallback(): Promise<void> {
    this.paused = false;
    try {
      await this.open(this.port, this.tlsPort);
    } catch (error) {
      if (!isAddressInUse(error)) throw error;
      await this.open(0, this.tlsPort === null ? null : 0);
    }
    this.problem = null;
  }

  /** Listens on the ports given; when they are not the configured ones (taken), the gateway is told which were meant. */
  private async open(port: number, tlsPort: number | null): Promise<void> {
    const config = this.config!;
    const moved = port !== (config.port ?? 0) || tlsPort !== (config.tlsPort ?? null);
    const settings =
      moved && config.settings
        ? { settings: { ...config.settings, intended: { port: config.port ?? 0, tlsPort: config.tlsPort ?? null } } }
        : {};
    const gateway = await this.options.create({ ...config, port, tlsPort, ...settings });
    try {
      const { url, tlsUrl, caNotice } = await gateway.start();
      if (caNotice) console.warn(`gatehouse: ${caNotice}`);
      this.gateway = gateway;
      this.url = url;
      this.lastUrl = url;
      // A resume comes back to the same addresses.
      this.port = Number(new URL(url).port);
      this.tlsPort = tlsUrl ? Number(new URL(tlsUrl).port) : null;
    } catch (error) {
      await gateway.stop();
      throw error;
    }
  }

  private async close(): Promise<void> {
    const running = this.gateway;
    this.gateway = undefined;
    this.url = null;
    await running?.stop();
  }

  /** Runs state changes one at a time, then notifies. */
  private serial(work: () => Promise<void>): Promise<DesktopConnection> {
    const next = this.queue.then(work).then(() => {
      const connection = this.connection();
      this.options.onChange(connection);
      return connection;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}
