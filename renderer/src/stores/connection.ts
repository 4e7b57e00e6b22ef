// zustand store of the connection to the gateway: its base URL as handed over by the host.
import { create } from 'zustand';

interface ConnectionState {
  gatewayUrl: string | null;
}

export const useConnectionStore = create<ConnectionState>(() => ({
  gatewayUrl: new URLSearchParams(window.location.search).get('gateway'),
}));
