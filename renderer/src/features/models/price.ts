// The price of a model as one line of text, in the console's language.
import type { ModelPrice } from '../../../../shared/models.ts';
import { formatUsd } from '../../components/money.ts';
import type { MessageKey, MessageVars } from '../../i18n/index.ts';

/** The price line of `price`, with amounts in USD at fixed decimals. */
export function priceText(price: ModelPrice, t: (key: MessageKey, vars?: MessageVars) => string): string {
  switch (price.kind) {
    case 'tokens': {
      const text = t('pricePerMillion', { input: formatUsd(price.inputPerMillion), output: formatUsd(price.outputPerMillion) });
      return price.perCall > 0 ? `${text} · ${t('pricePerCall', { amount: formatUsd(price.perCall) })}` : text;
    }
    case 'image':
      return t('pricePerImage', {
        small: formatUsd(price.small, 3),
        standard: formatUsd(price.standard, 3),
        large: formatUsd(price.large, 3),
      });
    case 'speech':
      return t('pricePerMillionCharacters', { amount: formatUsd(price.perMillionCharacters) });
    case 'transcription':
      return t('pricePerMinute', { amount: formatUsd(price.perMinute, 3) });
  }
}
