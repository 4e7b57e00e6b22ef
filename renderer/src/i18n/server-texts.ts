// Texts the gateway writes (asset failure reasons, 3D failures, where secrets are kept, model capabilities, errors) in the console's language; unknown texts stay as written.
import { useCallback } from 'react';
import { useStores } from '../context.ts';
import type { Language } from '../stores/prefs.ts';
import { ZH_API_ERRORS } from './api-errors.ts';
import { ZH_ERRORS } from './server-errors.ts';

/** A server text's pattern and its Chinese rendering (`$1`… are the pattern's groups). */
const ZH: readonly [RegExp, string][] = [
  [/^review rejected: the content did not pass review$/, '审核未通过：内容没有通过审核'],
  [/^format mismatch: a \.(\w+) file is (\w+), not (\w+)$/, '格式不符：.$1 文件是 $2，不是 $3'],
  [/^generation failed: the prompt contains the test value "(.+)"$/, '生成失败：提示词包含测试值“$1”'],
  [/^the OS keychain \(service "(.+)"\)$/, '系统钥匙串（服务“$1”）'],
  [/^a plain-text file readable only by you \((.+)\)$/, '只有你能读取的纯文本文件（$1）'],
  [/^no copy of secrets is kept \(shown once only\)$/, '不保存任何密钥副本（只显示一次）'],
  [/^no keychain was found \(no Secret Service on this machine\)$/, '未找到系统钥匙串（本机没有 Secret Service）'],
  [
    /^no keychain was found \(no D-Bus session on this machine, so no Secret Service\)$/,
    '未找到系统钥匙串（本机没有 D-Bus 会话，因此没有 Secret Service）',
  ],
  [
    /^no copy of secrets is kept: no keychain was found \(no Secret Service on this machine\)$/,
    '不保存任何密钥副本：未找到系统钥匙串（本机没有 Secret Service）',
  ],
  // The Models page's capabilities (the simulator's models and relayed ones).
  [/^chat, completions, messages, responses$/, '对话、补全、messages、responses'],
  [/^answers with the last user message$/, '原样回复最后一条用户消息'],
  [/^embeddings$/, '向量嵌入'],
  [/^image generation and edits$/, '图片生成与编辑'],
  [/^text to speech$/, '文本转语音'],
  [/^speech to text$/, '语音转文本'],
  [/^document reranking$/, '文档重排序'],
  [/^3D generation tasks$/, '3D 生成任务'],
  [/^realtime sessions$/, '实时会话'],
  [/^relayed to the (\w+) channel (.+)$/, '转发到 $1 渠道 $2'],
];

/** Every Chinese rendering, the first match wins. */
const ZH_ALL: readonly [RegExp, string][] = [...ZH, ...ZH_ERRORS, ...ZH_API_ERRORS];

/** `text` in `language`: a known server text translated, anything else unchanged. */
export function serverText(language: Language, text: string): string {
  if (language !== 'zh') return text;
  for (const [pattern, zh] of ZH_ALL) if (pattern.test(text)) return text.replace(pattern, zh);
  return text;
}

/** serverText in the chosen language. */
export function useServerText(): (text: string) => string {
  const language = useStores().prefs((state) => state.language);
  return useCallback((text: string) => serverText(language, text), [language]);
}
