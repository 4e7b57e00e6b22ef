// The tray icon: server status and quick actions (open, copy base URL, open in browser, pause/resume, quit).
import type { Menu, MenuItemConstructorOptions, NativeImage, Tray } from 'electron';
import type { DesktopConnection } from '../../shared/ipc.ts';

/** What the tray's items do. */
export interface TrayActions {
  open(): void;
  openInBrowser(): void;
  copyBaseUrl(): void;
  setPaused(paused: boolean): void;
  quit(): void;
}

/** The status line of the tray: running with its URL, paused, or the start problem. */
export function trayStatus(connection: DesktopConnection): string {
  if (connection.problem) return 'Gatehouse: server failed to start';
  if (connection.paused) return 'Gatehouse: server paused';
  return connection.gatewayUrl ? `Gatehouse: running on ${connection.gatewayUrl}` : 'Gatehouse: starting…';
}

/** The tray menu for a connection state. */
export function trayMenuTemplate(connection: DesktopConnection, actions: TrayActions): MenuItemConstructorOptions[] {
  const running = connection.gatewayUrl !== null && !connection.paused;
  return [
    { label: trayStatus(connection), enabled: false },
    { type: 'separator' },
    { label: 'Open Gatehouse', click: () => actions.open() },
    { label: 'Open console in browser', enabled: running, click: () => actions.openInBrowser() },
    { label: 'Copy base URL', enabled: running, click: () => actions.copyBaseUrl() },
    connection.paused
      ? { label: 'Resume server', click: () => actions.setPaused(false) }
      : { label: 'Pause server', enabled: running, click: () => actions.setPaused(true) },
    { type: 'separator' },
    { label: 'Quit Gatehouse', click: () => actions.quit() },
  ];
}

export interface TrayDeps {
  Tray: new (image: NativeImage) => Tray;
  buildMenu: (template: MenuItemConstructorOptions[]) => Menu;
  icon: NativeImage;
  actions: TrayActions;
}

/** Creates the tray; the returned function refreshes it after a state change. */
export function createTray(deps: TrayDeps, connection: DesktopConnection): { tray: Tray; update(connection: DesktopConnection): void } {
  const tray = new deps.Tray(deps.icon);
  const update = (next: DesktopConnection) => {
    tray.setToolTip(trayStatus(next));
    tray.setContextMenu(deps.buildMenu(trayMenuTemplate(next, deps.actions)));
  };
  update(connection);
  tray.on('click', () => deps.actions.open());
  return { tray, update };
}
