// The provider a new channel starts from: picking one fills the form's kind, base URL, compatibility and usual models.
import { CHANNEL_PRESETS, outputLimitField, PRESET_PLACEHOLDER, type ChannelPreset } from '../../../../shared/channel-presets.ts';
import { useT } from '../../i18n/index.ts';
import { Field } from '../../components/ui.tsx';

/** What the form tells about the picked preset: the output-limit field, and what is left to do (fetch models, replace a placeholder). */
function presetHint(t: ReturnType<typeof useT>, preset: ChannelPreset | null): string {
  if (!preset) return t('presetNoneHint');
  const notes = [t('presetLimitField', { field: outputLimitField(preset.kind, preset.compat) })];
  if (PRESET_PLACEHOLDER.test(preset.baseUrl)) notes.push(t('presetReplaceUrl'));
  if (preset.local) notes.push(t('presetLocal'));
  if (preset.models.length === 0) notes.push(t('presetFetchModels'));
  return notes.join(' · ');
}

/** A select of every preset; `onChange(null)` goes back to a blank form. */
export function PresetPicker(props: { preset: ChannelPreset | null; onChange: (preset: ChannelPreset | null) => void }) {
  const t = useT();
  return (
    <Field label={t('channelPreset')} hint={presetHint(t, props.preset)}>
      <select
        value={props.preset?.id ?? ''}
        onChange={(event) => props.onChange(CHANNEL_PRESETS.find((item) => item.id === event.target.value) ?? null)}
      >
        <option value="">{t('presetNone')}</option>
        {CHANNEL_PRESETS.map((preset) => (
          <option key={preset.id} value={preset.id}>
            {preset.id === 'custom' ? t('presetCustom') : preset.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
