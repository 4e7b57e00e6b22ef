// Test helper: parses a GLB and checks its internal consistency (chunks, buffer, accessors against bufferViews and data).
import assert from 'node:assert/strict';

const COMPONENT_BYTES: Record<number, number> = { 5126: 4, 5123: 2, 5125: 4 };
const TYPE_COUNT: Record<string, number> = { SCALAR: 1, VEC3: 3 };

/** Asserts the GLB is valid glTF 2.0 binary and returns its JSON and counts. */
export function checkGlb(bytes: Buffer) {
  assert.equal(bytes.toString('ascii', 0, 4), 'glTF');
  assert.equal(bytes.readUInt32LE(4), 2);
  assert.equal(bytes.readUInt32LE(8), bytes.length);
  const jsonLength = bytes.readUInt32LE(12);
  assert.equal(bytes.toString('ascii', 16, 20), 'JSON');
  assert.equal(jsonLength % 4, 0);
  const gltf = JSON.parse(bytes.toString('utf8', 20, 20 + jsonLength));
  const binStart = 20 + jsonLength;
  const binLength = bytes.readUInt32LE(binStart);
  assert.equal(bytes.toString('ascii', binStart + 4, binStart + 7), 'BIN');
  assert.equal(binLength % 4, 0);
  assert.equal(binStart + 8 + binLength, bytes.length);
  const bin = bytes.subarray(binStart + 8, binStart + 8 + binLength);
  assert.equal(gltf.asset.version, '2.0');
  assert.ok(gltf.buffers[0].byteLength <= binLength);
  for (const view of gltf.bufferViews) assert.ok(view.byteOffset + view.byteLength <= gltf.buffers[0].byteLength);
  for (const accessor of gltf.accessors) {
    const view = gltf.bufferViews[accessor.bufferView];
    assert.equal(accessor.count * COMPONENT_BYTES[accessor.componentType]! * TYPE_COUNT[accessor.type]!, view.byteLength);
  }
  const primitive = gltf.meshes[0].primitives[0];
  const position = gltf.accessors[primitive.attributes.POSITION];
  const positionView = gltf.bufferViews[position.bufferView];
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < position.count * 3; i++) {
    const value = bin.readFloatLE(positionView.byteOffset + i * 4);
    min[i % 3] = Math.min(min[i % 3]!, value);
    max[i % 3] = Math.max(max[i % 3]!, value);
  }
  assert.deepEqual(
    position.min.map((v: number) => Math.fround(v)),
    min,
  );
  assert.deepEqual(
    position.max.map((v: number) => Math.fround(v)),
    max,
  );
  const indices = gltf.accessors[primitive.indices];
  const indexView = gltf.bufferViews[indices.bufferView];
  for (let i = 0; i < indices.count; i++) assert.ok(bin.readUInt16LE(indexView.byteOffset + i * 2) < position.count);
  return { gltf, vertices: position.count as number, triangles: (indices.count / 3) as number };
}
