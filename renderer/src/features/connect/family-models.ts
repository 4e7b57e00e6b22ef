// The model each family's setups and snippets name, suggested from the Models page's list (shared/model-suggest.ts), never hard-coded.
import { useEffect } from 'react';
import { suggestModel } from '../../../../shared/model-suggest.ts';
import { useStores } from '../../context.ts';
import type { FamilyModels } from './setups.ts';

/** The suggested model of each family (the model list is loaded when missing); null until the list is there. */
export function useFamilyModels(): FamilyModels | null {
  const { models: store } = useStores();
  const models = store((state) => state.models);
  useEffect(() => {
    if (models === null) void store.getState().load();
  }, [models, store]);
  if (models === null) return null;
  const fallback = models.find((model) => model.chat)?.id ?? '';
  const pick = (family: keyof FamilyModels) => suggestModel(models, family) ?? fallback;
  return { openai: pick('openai'), anthropic: pick('anthropic'), gemini: pick('gemini') };
}
