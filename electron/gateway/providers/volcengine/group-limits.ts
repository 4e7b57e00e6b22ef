// What Ark accepts of an asset group (CreateAssetGroup): its name and description lengths and its only group type, checked before a group meant for it is kept.
import { DEFAULT_GROUP_TYPE } from '../../../../shared/portrait.ts';

/** Ark's published limits of an asset group: at most 64 characters of name and 300 of description; only `AIGC` groups. */
export const VOLCENGINE_GROUP_LIMITS = { name: 64, description: 300, groupType: DEFAULT_GROUP_TYPE } as const;

/** Why a reviewer would refuse a group: the field and a message naming it and the limit. */
export interface GroupRefused {
  param: 'name' | 'description' | 'group_type';
  message: string;
}

/** Why Ark would refuse a group with these fields (each checked only when given); undefined when it would not. */
export function volcengineGroupRefusal(group: { name?: string; description?: string; groupType?: string }): GroupRefused | undefined {
  const { name, description, groupType } = VOLCENGINE_GROUP_LIMITS;
  if (group.name !== undefined && [...group.name].length > name) {
    return {
      param: 'name',
      message: `name must be at most ${name} characters while a volcengine channel reviews (Ark's limit for asset group names)`,
    };
  }
  if (group.description !== undefined && [...group.description].length > description) {
    const message = `description must be at most ${description} characters while a volcengine channel reviews (Ark's limit for asset group descriptions)`;
    return { param: 'description', message };
  }
  if (group.groupType !== undefined && group.groupType !== groupType) {
    return {
      param: 'group_type',
      message: `group_type must be ${groupType} while a volcengine channel reviews (Ark creates only ${groupType} groups)`,
    };
  }
  return undefined;
}
