// Host header names in the form the DNS-rebinding check compares: canonical addresses, whatever spelling a client sent.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hostNameOf, hostVerdict, normalizeHostName } from '../../../electron/gateway/server/host-names.ts';

describe('host names', () => {
  test('numeric IPv4 spellings a browser accepts become the dotted-decimal address; canonical ones stay as they are', () => {
    const cases: [string, string][] = [
      ['127.0.0.1', '127.0.0.1'],
      ['127.1', '127.0.0.1'],
      ['127.000.0.1', '127.0.0.1'],
      ['0127.0.0.1', '87.0.0.1'],
      ['0x7f.0.0.1', '127.0.0.1'],
      ['2130706433', '127.0.0.1'],
      ['LOCALHOST.', 'localhost'],
      ['localhost', 'localhost'],
      ['[0:0::1]', '::1'],
    ];
    for (const [text, name] of cases) assert.equal(normalizeHostName(text), name, text);
  });

  test('a Host header is read without its port, and only loopback or allowed names pass', () => {
    const policy = { listenHost: '127.0.0.1', allowedHosts: ['gate.test'] };
    assert.equal(hostNameOf('127.0.0.1:8790'), '127.0.0.1');
    assert.equal(hostNameOf('0177.0.0.1:8790'), '127.0.0.1');
    assert.equal(hostVerdict('0x7f.1:8790', policy), 'named');
    assert.equal(hostVerdict('gate.test:1', policy), 'named');
    assert.equal(hostVerdict('10.0.0.1:8790', policy), 'refused');
    assert.equal(hostVerdict('127.0.0.1.evil.example', policy), 'refused');
  });
});
