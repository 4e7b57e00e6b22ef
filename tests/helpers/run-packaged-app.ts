// Test helper run as a child process: starts a packaged app's main bundle (extracted from app.asar) with the stand-in `electron` module and prints what it started as one JSON line.
import module from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { standIn } from './electron-stand-in.ts';

const [appPath, appData] = process.argv.slice(2);
if (!appPath || !appData) throw new Error('usage: run-packaged-app.ts <extracted app folder> <app-data folder>');

standIn.appPath = appPath;
standIn.appData = appData;
const registerHooks = (module as unknown as { registerHooks: (hooks: object) => void }).registerHooks;
const fake = pathToFileURL(path.join(import.meta.dirname, 'electron-stand-in.ts')).href;
registerHooks({
  resolve: (specifier: string, context: unknown, next: (specifier: string, context: unknown) => unknown) =>
    specifier === 'electron' ? { url: fake, shortCircuit: true } : next(specifier, context),
});
await import(pathToFileURL(path.join(appPath, 'out/main/index.js')).href);
const consoleUrl = await standIn.firstLoad;
const window = standIn.windows[0]!;
const connection = await standIn.handlers.get('gatehouse:get-connection')!({
  sender: window.webContents,
  senderFrame: { url: consoleUrl },
});
console.log(JSON.stringify({ consoleUrl, connection, windowIcon: window.options.icon, preload: window.options.webPreferences.preload }));
