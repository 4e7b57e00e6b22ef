// Unit tests of the provider presets: every one is a channel the gateway accepts, with the profile and port its server needs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHANNEL_PRESETS, outputLimitField, presetById, presetInput, PRESET_PLACEHOLDER } from '../../../shared/channel-presets.ts';
import { compatOfChannel } from '../../../shared/channels.ts';
import { channelSettings } from '../../../electron/gateway/services/channel-settings.ts';

test('the issue’s providers are all there, each once, with the local servers on their default ports and no key needed', () => {
  assert.deepEqual(
    CHANNEL_PRESETS.map((preset) => preset.id),
    [
      'openai',
      'anthropic',
      'gemini',
      'ollama',
      'lm-studio',
      'llama-cpp',
      'vllm',
      'openrouter',
      'deepseek',
      'groq',
      'mistral',
      'together',
      'moonshot',
      'zhipu',
      'dashscope',
      'volcengine-ark',
      'azure-openai',
      'custom',
    ],
  );
  const local = Object.fromEntries(CHANNEL_PRESETS.filter((preset) => preset.local).map((preset) => [preset.id, preset.baseUrl]));
  assert.deepEqual(local, {
    ollama: 'http://127.0.0.1:11434/v1',
    'lm-studio': 'http://127.0.0.1:1234/v1',
    'llama-cpp': 'http://127.0.0.1:8080/v1',
    vllm: 'http://127.0.0.1:8000/v1',
  });
  assert.equal(presetById(' LM-Studio ')?.label, 'LM Studio');
  assert.equal(presetById('nope'), undefined);
});

test('every preset is a channel the gateway accepts as it is (a placeholder only where the user must fill it in)', () => {
  for (const preset of CHANNEL_PRESETS) {
    const settings = channelSettings(presetInput(preset));
    assert.equal(settings.kind, preset.kind, preset.id);
    assert.equal(PRESET_PLACEHOLDER.test(preset.baseUrl), preset.id === 'azure-openai' || preset.id === 'custom', preset.id);
  }
});

test('the output-limit field: OpenAI and Azure read max_completion_tokens, compatible servers and Anthropic max_tokens', () => {
  const fieldOf = (id: string) => {
    const preset = presetById(id)!;
    return outputLimitField(preset.kind, preset.compat);
  };
  assert.equal(fieldOf('openai'), 'max_completion_tokens');
  assert.equal(fieldOf('azure-openai'), 'max_completion_tokens');
  for (const id of ['ollama', 'deepseek', 'groq', 'zhipu', 'dashscope', 'volcengine-ark']) assert.equal(fieldOf(id), 'max_tokens', id);
  assert.equal(fieldOf('anthropic'), 'max_tokens');
  assert.equal(fieldOf('gemini'), 'generationConfig.maxOutputTokens');
  // The preset's profile is the one auto would choose from its address: setting it changes nothing but says it.
  for (const preset of CHANNEL_PRESETS.filter((item) => item.kind === 'openai'))
    assert.equal(preset.compat, compatOfChannel(preset.baseUrl.replace(PRESET_PLACEHOLDER, 'example'), null), preset.id);
});
