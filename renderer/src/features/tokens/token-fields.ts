// Text of the token forms' fields to API values and back: a model list typed as names separated by commas, a local date-time.

/** The model names typed in a field (commas or new lines between them); null when none, meaning any model. */
export function parseModelList(text: string): string[] | null {
  const names = text
    .split(/[,\n]/)
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.length === 0 ? null : [...new Set(names)];
}

/** A `datetime-local` input's value for an epoch-ms time ('' for none). */
export function localInputOf(ms: number | null): string {
  if (ms === null) return '';
  const date = new Date(ms);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
