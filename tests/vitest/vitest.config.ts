// Vitest's configuration for the examples of `gatehouse/testing` under Vitest (run by tests/integration/testing-helper-vitest.test.ts).
export default {
  test: { include: ['**/*.vitest.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
};
