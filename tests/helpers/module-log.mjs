// Test helper, loaded with `node --import`: writes the URL of every module the process loaded to GATEHOUSE_TEST_MODULE_LOG when it exits.
import { writeFileSync } from 'node:fs';
import module from 'node:module';

const loaded = [];
module.registerHooks({
  load(url, context, nextLoad) {
    loaded.push(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => writeFileSync(process.env.GATEHOUSE_TEST_MODULE_LOG, loaded.join('\n')));
