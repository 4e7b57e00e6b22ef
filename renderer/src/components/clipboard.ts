// Copies text: through the desktop host when there is one, else the browser's clipboard, else a hidden text area.
import type { GatehouseBridge } from '../../../shared/ipc.ts';

export async function copyText(text: string, bridge: GatehouseBridge | null): Promise<void> {
  if (bridge) return bridge.copyText(text);
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // The Clipboard API needs focus and permission; fall back to the selection-based copy.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'offscreen';
  document.body.append(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}
