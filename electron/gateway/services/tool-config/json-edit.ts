// The JSON settings files of coding tools: read as one object (or refused, naming the file), changed key by key, written back indented.
import { GatewayError } from '../../errors.ts';

export type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The object a settings file holds (`{}` for a missing or empty one); a file that is not one JSON object is refused, so nothing of it is lost. */
export function readJsonObject(text: string | null, shown: string): JsonObject {
  if (text === null || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new GatewayError(
      'invalid_request',
      `${shown} is not plain JSON (${error instanceof Error ? error.message : String(error)}); fix it or move it away, then connect again`,
    );
  }
  if (!isObject(value))
    throw new GatewayError('invalid_request', `${shown} does not hold a JSON object; fix it or move it away, then connect again`);
  return value;
}

/**
 * Sets `section` (a path of object keys, e.g. `['env']` or `['security', 'auth']`) to its current members with `set` over them
 * and the keys of `remove` taken out; every other member of the file stays as it is. A section that is not an object is refused.
 */
export function mergeSection(
  root: JsonObject,
  section: readonly string[],
  set: JsonObject,
  remove: readonly string[] = [],
  shown = 'the file',
): void {
  let parent = root;
  for (const key of section) {
    const child = parent[key];
    if (child === undefined) parent[key] = {};
    else if (!isObject(child))
      throw new GatewayError('invalid_request', `${shown}: "${section.join('.')}" is not an object; fix it, then connect again`);
    parent = parent[key] as JsonObject;
  }
  for (const key of remove) delete parent[key];
  Object.assign(parent, set);
}

/** The text of a settings object: two-space indents and a final new line, as the tools write their own. */
export const jsonText = (value: JsonObject): string => `${JSON.stringify(value, null, 2)}\n`;

/** The member at `section` of a settings object, when it is an object. */
export function sectionOf(root: JsonObject, section: readonly string[]): JsonObject | undefined {
  let current: unknown = root;
  for (const key of section) current = isObject(current) ? current[key] : undefined;
  return isObject(current) ? current : undefined;
}
