// Unit tests of the simulated 3D meshes and their GLB, OBJ and binary STL writers: structure, padding and data read back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { meshForPrompt, torus, triangle, type Mesh } from '../../../electron/gateway/providers/simulate/mesh3d/geometry.ts';
import { toGlb } from '../../../electron/gateway/providers/simulate/mesh3d/glb.ts';
import { toObj } from '../../../electron/gateway/providers/simulate/mesh3d/obj.ts';
import { toStl } from '../../../electron/gateway/providers/simulate/mesh3d/stl.ts';
import { checkGlb } from '../../helpers/glb-check.ts';

/** One triangle: 6 bytes of indices, so the BIN chunk needs 2 bytes of padding. */
const ONE_TRIANGLE: Mesh = {
  positions: Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]),
  normals: Float32Array.from([0, 0, 1, 0, 0, 1, 0, 0, 1]),
  indices: Uint16Array.from([0, 1, 2]),
  color: [1, 0.5, 0.25, 1],
};

test('the mesh of a prompt is deterministic, differs between prompts and is a grid of unit normals', () => {
  const a = meshForPrompt('a ceramic teapot');
  assert.deepEqual(meshForPrompt('a ceramic teapot'), a);
  assert.notDeepEqual(meshForPrompt('a bicycle bell').positions, a.positions);
  const ring = torus(1, 0.25, 5, 4, [1, 1, 1, 1]);
  assert.equal(ring.positions.length / 3, 6 * 5);
  assert.equal(ring.indices.length / 3, 5 * 4 * 2);
  for (const index of ring.indices) assert.ok(index < ring.positions.length / 3);
  for (let i = 0; i < ring.normals.length; i += 3) {
    assert.ok(Math.abs(Math.hypot(ring.normals[i]!, ring.normals[i + 1]!, ring.normals[i + 2]!) - 1) < 1e-6);
  }
});

test('GLB: header, space-padded JSON chunk, zero-padded BIN chunk, and the mesh data read back exactly', () => {
  const paddings = new Set<number>();
  for (const name of ['a', 'ab', 'abc', 'abcd']) {
    const bytes = toGlb(ONE_TRIANGLE, name);
    const { gltf, vertices, triangles } = checkGlb(bytes);
    assert.deepEqual([vertices, triangles], [3, 1]);
    const jsonLength = bytes.readUInt32LE(12);
    const jsonText = bytes.toString('utf8', 20, 20 + jsonLength);
    assert.match(jsonText, /^\{.*\} *$/s, 'JSON chunk padded with spaces only');
    paddings.add(jsonText.length - jsonText.trimEnd().length);
    assert.equal(gltf.nodes[0].name, name);
    const binStart = 20 + jsonLength;
    const binLength = bytes.readUInt32LE(binStart);
    const used = gltf.buffers[0].byteLength;
    assert.equal(used, 36 + 36 + 6);
    assert.equal(binLength, 80);
    assert.deepEqual([...bytes.subarray(binStart + 8 + used)], [0, 0], 'BIN chunk padded with zeros');
  }
  assert.ok(
    [...paddings].some((spaces) => spaces > 0),
    'some name needed JSON padding',
  );
  const bytes = toGlb(ONE_TRIANGLE, 'tri');
  const { gltf } = checkGlb(bytes);
  const primitive = gltf.meshes[0].primitives[0];
  assert.deepEqual(Object.keys(primitive.attributes).sort(), ['NORMAL', 'POSITION']);
  assert.equal(primitive.mode, 4);
  assert.deepEqual(gltf.materials[primitive.material].pbrMetallicRoughness.baseColorFactor, ONE_TRIANGLE.color);
  assert.deepEqual(
    gltf.bufferViews.map((view: { target: number }) => view.target),
    [34962, 34962, 34963],
  );
  assert.deepEqual(gltf.accessors[primitive.attributes.POSITION].min, [0, 0, 0]);
  assert.deepEqual(gltf.accessors[primitive.attributes.POSITION].max, [1, 1, 0]);
  const bin = bytes.subarray(20 + bytes.readUInt32LE(12) + 8);
  const read = (accessor: number, i: number) => bin.readFloatLE(gltf.bufferViews[gltf.accessors[accessor].bufferView].byteOffset + i * 4);
  assert.deepEqual(
    Array.from({ length: 9 }, (_, i) => read(primitive.attributes.POSITION, i)),
    [...ONE_TRIANGLE.positions],
  );
  assert.deepEqual(
    Array.from({ length: 9 }, (_, i) => read(primitive.attributes.NORMAL, i)),
    [...ONE_TRIANGLE.normals],
  );
  const indexOffset = gltf.bufferViews[gltf.accessors[primitive.indices].bufferView].byteOffset;
  assert.deepEqual(
    [0, 1, 2].map((i) => bin.readUInt16LE(indexOffset + i * 2)),
    [0, 1, 2],
  );
});

test('GLB of a prompt mesh is consistent and its triangle count matches the mesh', () => {
  const mesh = meshForPrompt('a paper crane');
  const { vertices, triangles } = checkGlb(toGlb(mesh, 'a paper crane'));
  assert.equal(vertices, mesh.positions.length / 3);
  assert.equal(triangles, mesh.indices.length / 3);
});

test('OBJ: v, vn and 1-based f lines that read back to the mesh', () => {
  const mesh = meshForPrompt('a lamp');
  const lines = toObj(mesh, 'a lamp').toString('utf8').trim().split('\n');
  assert.ok(lines.includes('o a_lamp'));
  const vertices = lines.filter((line) => line.startsWith('v ')).map((line) => line.slice(2).split(' ').map(Number));
  const normals = lines.filter((line) => line.startsWith('vn '));
  const faces = lines
    .filter((line) => line.startsWith('f '))
    .map((line) =>
      line
        .slice(2)
        .split(' ')
        .map((ref) => ref.split('//').map(Number)),
    );
  assert.equal(vertices.length, mesh.positions.length / 3);
  assert.equal(normals.length, mesh.normals.length / 3);
  assert.equal(faces.length, mesh.indices.length / 3);
  faces.forEach((face, t) => {
    assert.equal(face.length, 3);
    face.forEach(([v, vn], k) => {
      assert.equal(v, vn);
      assert.equal(v, mesh.indices[t * 3 + k]! + 1);
    });
  });
  vertices.forEach((xyz, i) => xyz.forEach((value, axis) => assert.ok(Math.abs(value - mesh.positions[i * 3 + axis]!) < 1e-6)));
});

test('binary STL: 80-byte header, triangle count, 50 bytes per triangle with unit normals and the mesh corners', () => {
  const mesh = meshForPrompt('a rocket');
  const bytes = toStl(mesh, 'a rocket');
  const count = bytes.readUInt32LE(80);
  assert.equal(count, mesh.indices.length / 3);
  assert.equal(bytes.length, 84 + 50 * count);
  assert.match(bytes.toString('ascii', 0, 80), /^Gatehouse simulated 3D result: a rocket\0+$/);
  for (let t = 0; t < count; t++) {
    const base = 84 + t * 50;
    const floats = Array.from({ length: 12 }, (_, i) => bytes.readFloatLE(base + i * 4));
    const normal = floats.slice(0, 3);
    assert.ok(Math.abs(Math.hypot(...normal) - 1) < 1e-5, `triangle ${t} normal`);
    const corners = triangle(mesh, t).flat();
    assert.deepEqual(floats.slice(3), corners);
    const edge = [corners[3]! - corners[0]!, corners[4]! - corners[1]!, corners[5]! - corners[2]!];
    assert.ok(Math.abs(normal[0]! * edge[0]! + normal[1]! * edge[1]! + normal[2]! * edge[2]!) < 1e-4, 'normal ⟂ edge');
    assert.equal(bytes.readUInt16LE(base + 48), 0);
  }
  const single = toStl(ONE_TRIANGLE, 'x'.repeat(200));
  assert.equal(single.length, 134);
  assert.deepEqual(
    [0, 1, 2].map((i) => single.readFloatLE(84 + i * 4)),
    [0, 0, 1],
    'normal of the counter-clockwise triangle',
  );
});
