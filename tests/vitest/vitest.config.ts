// Vitest's configuration for the example of `gatehouse/testing` under Vitest (run by tests/integration/testing-helper-vitest.test.ts).
export default {
  test: {
    include: ['**/*.vitest.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Nothing written into node_modules (shared between checkouts here): no results cache, no module cache.
    cache: false,
    fsModuleCache: false,
  },
};
