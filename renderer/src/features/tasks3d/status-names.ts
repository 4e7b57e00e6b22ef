// Human names of the 3D task statuses (the API's SUBMITTED, QUEUED, IN_PROGRESS, SUCCESS, FAILURE…), in the console's language.
import type { MessageKey, MessageVars } from '../../i18n/index.ts';

const NAMES: Record<string, MessageKey> = {
  SUBMITTED: 'task3dSubmitted',
  QUEUED: 'task3dQueued',
  IN_PROGRESS: 'task3dInProgress',
  SUCCESS: 'task3dSuccess',
  FAILURE: 'task3dFailure',
  FAILED: 'task3dFailure',
  CANCELLED: 'task3dCancelled',
};

/** The name a user reads for `status`; an unknown status shows as the API wrote it. */
export function taskStatusName(status: string, t: (key: MessageKey, vars?: MessageVars) => string): string {
  const key = NAMES[status];
  return key ? t(key) : status;
}
