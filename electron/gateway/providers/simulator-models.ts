// The model names that mean the simulator whatever channels exist: `sim-*`, an `-echo` name, a `-fault-<value>` test value.
import { FAULTS, type Fault } from '../../../shared/test-values.ts';

/** Whether `model` names the simulator (`sim-…`, `…-echo`) or asks for a documented fault (`…-fault-429`, `…-fault-500x2`). */
export function isSimulatorModel(model: string): boolean {
  if (/^sim-/i.test(model) || /-echo$/i.test(model)) return true;
  const fault = /-fault-([a-z0-9]+?)(?:x\d+)?$/i.exec(model)?.[1]?.toLowerCase();
  return fault !== undefined && FAULTS.includes(fault as Fault);
}
