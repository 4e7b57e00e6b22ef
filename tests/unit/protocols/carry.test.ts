// Unit tests of carrying opaque reasoning tokens through client protocols: marked with their origin, restored exactly, ids unchanged when nothing is folded in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { carryOpaque, carryToolId, readCarried, readToolId } from '../../../electron/gateway/protocols/neutral/carry.ts';

test('a foreign signature is marked with its origin and restored; a native one goes as it is', () => {
  const gemini = 'CiQBcsjafT+x/y==';
  const carried = carryOpaque(gemini, 'gemini', 'anthropic');
  assert.notEqual(carried, gemini);
  assert.deepEqual(readCarried(carried, 'anthropic'), { origin: 'gemini', value: gemini });
  assert.equal(carryOpaque('EqQBCkYIBx', 'anthropic', 'anthropic'), 'EqQBCkYIBx');
  assert.deepEqual(readCarried('EqQBCkYIBx', 'anthropic'), { origin: 'anthropic', value: 'EqQBCkYIBx' });
});

test('a thought signature folded into a tool call id comes back whole, and the id stays a valid tool id', () => {
  const signature = 'CiQBcsjafT+x/y==\nwith any text';
  const id = carryToolId('call_abc', signature);
  assert.match(id, /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(readToolId(id), { id: 'call_abc', thoughtSignature: signature });
  assert.equal(carryToolId('call_abc', undefined), 'call_abc');
  assert.deepEqual(readToolId('toolu_01XYZ'), { id: 'toolu_01XYZ' });
});
