// The ids a test suite tags its calls with: the test id (`x-gatehouse-test-id`, aimock's `x-test-id`) and the request id every answer carries (`x-request-id`).

/** The request header that scopes a call to one test: its fixtures, sequence and fault counters, and journal entries. */
export const TEST_ID_HEADER = 'x-gatehouse-test-id';
/** aimock's name for the same header, read when the gateway's own is absent. */
export const AIMOCK_TEST_ID_HEADER = 'x-test-id';
/** Characters of a test id that count: a longer one is cut to this many. */
export const MAX_TEST_ID_CHARS = 256;

/** The header every answer carries: the caller's request id when it is a plain one, else one the gateway made. */
export const REQUEST_ID_HEADER = 'x-request-id';
/** A caller's request id is kept when it is 1–128 characters of letters, digits and `._:-`; anything else is replaced. */
export const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The test id a call names (its first MAX_TEST_ID_CHARS characters), or undefined when it names none. */
export function testIdOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers[TEST_ID_HEADER] ?? headers[AIMOCK_TEST_ID_HEADER];
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text === '' ? undefined : text.slice(0, MAX_TEST_ID_CHARS);
}
