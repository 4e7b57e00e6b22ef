// Handles every invoke channel of the shared IPC contract, after checking who sent the message and what it carries.
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { COPY_TEXT_MAX, IPC_INVOKE_CHANNELS, type IpcInvokeChannel, type IpcInvokeContract } from '../../shared/ipc.ts';

/** One handler per channel: a channel of the contract without a handler is a compile error. */
export type IpcHandlers = {
  [C in IpcInvokeChannel]: (
    ...args: IpcInvokeContract[C]['args']
  ) => IpcInvokeContract[C]['result'] | Promise<IpcInvokeContract[C]['result']>;
};

/** Checks of each channel's arguments as they arrive (the renderer is not trusted to send the right types). */
const ARGUMENTS: { [C in IpcInvokeChannel]: (args: unknown[]) => boolean } = {
  'gatehouse:get-connection': (args) => args.length === 0,
  'gatehouse:set-paused': (args) => args.length === 1 && typeof args[0] === 'boolean',
  'gatehouse:restart-server': (args) => args.length === 0,
  'gatehouse:open-external': (args) => args.length === 1 && typeof args[0] === 'string' && args[0].length <= 2048,
  'gatehouse:copy-text': (args) => args.length === 1 && typeof args[0] === 'string' && args[0].length <= COPY_TEXT_MAX,
};

/** The refusal every untrusted or malformed message gets. */
export class IpcRefused extends Error {
  override readonly name = 'IpcRefused';
}

/** Registers every channel; `isTrusted` decides per message whether its sender is the app's own window. */
export function registerIpc(
  ipcMain: Pick<IpcMain, 'handle'>,
  handlers: IpcHandlers,
  isTrusted: (event: IpcMainInvokeEvent) => boolean,
): void {
  for (const channel of IPC_INVOKE_CHANNELS) {
    ipcMain.handle(channel, async (event, ...args: unknown[]) => {
      if (!isTrusted(event)) throw new IpcRefused(`${channel}: the sender is not the Gatehouse window`);
      if (!ARGUMENTS[channel](args)) throw new IpcRefused(`${channel}: malformed arguments`);
      const handler = handlers[channel] as (...values: unknown[]) => unknown;
      return handler(...args);
    });
  }
}
