// Longest user-supplied strings the gateway stores (names, descriptions, URLs, prompts): the gateway's checks and the console's forms use these numbers.

/** Maximum length, in characters (UTF-16 code units, as JavaScript and HTML `maxLength` count), of each stored text field. */
export const FIELD_LIMITS = {
  /** Account names (admin API, console, CLI). */
  accountName: 64,
  /** Token names. */
  tokenName: 64,
  /** Portrait group names. */
  groupName: 256,
  /** Portrait group types (`group_type`). */
  groupType: 64,
  /** Portrait group descriptions. */
  groupDescription: 2000,
  /** Portrait asset names. */
  assetName: 256,
  /** URLs kept with a record: portrait asset `url`, 3D `image_url`. */
  url: 2048,
  /** Model names kept with a record (3D tasks). */
  model: 256,
  /** 3D generation prompts. */
  prompt3d: 4000,
} as const;

/** The message every over-long field gets, e.g. "name must be at most 256 characters". */
export function tooLongMessage(field: string, max: number): string {
  return `${field} must be at most ${max} characters`;
}
