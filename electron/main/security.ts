// The Electron security checklist applied to every web contents and session: no navigation away, no new windows, no permissions, a CSP on every page.
import type { Session, WebContents } from 'electron';
import { CONSOLE_CSP } from '../../shared/console-address.ts';
import { isOpenableExternalUrl } from '../../shared/ipc.ts';

export interface GuardOptions {
  /** True for URLs of the app itself. */
  isAppUrl(url: string): boolean;
  /** Opens a checked URL in the user's browser. */
  openExternal(url: string): void;
}

/** Keeps a web contents on the app: navigation and redirects elsewhere are stopped, new windows denied, webviews refused. */
export function guardWebContents(contents: WebContents, options: GuardOptions): void {
  const leave = (event: { preventDefault(): void }, url: string) => {
    if (options.isAppUrl(url)) return;
    event.preventDefault();
    if (isOpenableExternalUrl(url)) options.openExternal(url);
  };
  contents.on('will-navigate', (event, url) => leave(event, url));
  contents.on('will-redirect', (event, url) => leave(event, url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (!options.isAppUrl(url) && isOpenableExternalUrl(url)) options.openExternal(url);
    return { action: 'deny' };
  });
}

/**
 * Denies every permission request and check (camera, notifications, clipboard reads, …) and gives
 * pages without a CSP the console's (off only for the dev server, whose hot reload needs inline scripts).
 */
export function lockDownSession(session: Session, options: { enforceCsp: boolean }): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...details.responseHeaders };
    const hasPolicy = Object.keys(headers).some((name) => name.toLowerCase() === 'content-security-policy');
    if (options.enforceCsp && !hasPolicy && (details.resourceType === 'mainFrame' || details.resourceType === 'subFrame')) {
      headers['Content-Security-Policy'] = [CONSOLE_CSP];
    }
    callback({ responseHeaders: headers });
  });
}
