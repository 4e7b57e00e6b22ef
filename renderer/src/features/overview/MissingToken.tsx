// Shown when the console was opened without an admin token: how to get the right address.
import { translate } from '../../i18n/index.ts';
import { initialLanguage } from '../../stores/prefs.ts';

export function MissingToken(props: { language: string }) {
  const language = initialLanguage(undefined, props.language);
  return (
    <main className="missing-token">
      <h1>{translate(language, 'missingTokenTitle')}</h1>
      <p>{translate(language, 'missingTokenBody')}</p>
      <pre>console: http://127.0.0.1:8790/console/?admin_token=…</pre>
      <p>{translate(language, 'missingTokenDesktop')}</p>
    </main>
  );
}
