// The accounts a picker offers: those the gateway reports, with the chosen one first when the gateway does not list it (yet).
import { useStores } from '../context.ts';

const NO_ACCOUNTS: string[] = [];

/** Account names for a select whose value is `chosen` (an empty `chosen` adds nothing). */
export function useAccountChoices(chosen: string): string[] {
  const accounts = useStores().status((state) => state.status?.accounts ?? NO_ACCOUNTS);
  return !chosen || accounts.includes(chosen) ? accounts : [chosen, ...accounts];
}
