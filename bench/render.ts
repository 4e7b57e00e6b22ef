// `node bin/run-ts.mjs bench/render.ts bench/results/<file>.json`: renders a results file's Markdown again (after the report gained a table, say) and prints it.
import { readFileSync, writeFileSync } from 'node:fs';
import { renderMarkdown, type BenchResults } from './lib/report.ts';

const file = process.argv[2];
if (!file?.endsWith('.json')) throw new Error('usage: bench/render.ts bench/results/<file>.json');
const markdown = renderMarkdown(JSON.parse(readFileSync(file, 'utf8')) as BenchResults);
writeFileSync(file.replace(/\.json$/, '.md'), markdown);
console.log(markdown);
