// The desktop window's first screen: where the gateway listens (the full console arrives with the UI issue).
import { useConnectionStore } from './stores/connection.ts';

export function App() {
  const gatewayUrl = useConnectionStore((state) => state.gatewayUrl);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 24 }}>
      <h1>Gatehouse</h1>
      <p>{gatewayUrl ? `The gateway listens on ${gatewayUrl}` : 'The gateway is starting…'}</p>
    </main>
  );
}
