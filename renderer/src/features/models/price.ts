// The price of a model as one line of text, in the console's language.
import type { ModelPrice } from '../../../../shared/models.ts';
import { formatMoney } from '../../../../shared/money.ts';
import type { MessageKey, MessageVars } from '../../i18n/index.ts';

/** The price line of `price`, with amounts in USD at fixed decimals. */
export function priceText(price: ModelPrice, t: (key: MessageKey, vars?: MessageVars) => string): string {
  switch (price.kind) {
    case 'tokens': {
      const text = t('pricePerMillion', { input: formatMoney(price.inputPerMillion), output: formatMoney(price.outputPerMillion) });
      return price.perCall > 0 ? `${text} · ${t('pricePerCall', { amount: formatMoney(price.perCall) })}` : text;
    }
    case 'image':
      return t('pricePerImage', {
        small: formatMoney(price.small),
        standard: formatMoney(price.standard),
        large: formatMoney(price.large),
      });
    case 'speech':
      return t('pricePerMillionCharacters', { amount: formatMoney(price.perMillionCharacters) });
    case 'transcription':
      return t('pricePerMinute', { amount: formatMoney(price.perMinute) });
  }
}
