// Test helper: the JSON Schema validator of the simulated engine, re-exported for tests (one implementation, no twin).
export { validateAgainstSchema } from '../../electron/gateway/providers/simulate/text/json-schema-check.ts';
