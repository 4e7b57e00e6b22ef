// Every route of the admin API (ADMIN_ROUTES) is in its reference page, docs/admin-api.md, so a new route is never missing from it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ADMIN_ROUTES } from '../../../shared/admin-api.ts';

test('docs/admin-api.md names every admin route as `METHOD PATH`, and no route the API lacks', () => {
  const page = readFileSync(new URL('../../../docs/admin-api.md', import.meta.url), 'utf8');
  const routes = Object.values(ADMIN_ROUTES).map(({ method, path }) => `${method} ${path}`);
  assert.deepEqual(
    routes.filter((route) => !page.includes(`\`${route}\``)),
    [],
    'routes the page leaves out',
  );
  const named = [...page.matchAll(/`((?:GET|POST|PUT|DELETE) \/admin\/api[^`?]*)`/g)].map((match) => match[1]!);
  assert.deepEqual(
    named.filter((route) => !routes.includes(route)),
    [],
    'routes the page names that the API does not have',
  );
});
