// Writes a mesh as a glTF 2.0 binary (GLB): 12-byte header, a JSON chunk padded with spaces, a BIN chunk padded with zeros.
import { bounds, type Mesh } from './geometry.ts';

const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;
const FLOAT = 5126;
const UNSIGNED_SHORT = 5123;
const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;

export function toGlb(mesh: Mesh, name: string): Buffer {
  const positions = Buffer.from(mesh.positions.buffer, mesh.positions.byteOffset, mesh.positions.byteLength);
  const normals = Buffer.from(mesh.normals.buffer, mesh.normals.byteOffset, mesh.normals.byteLength);
  const indices = Buffer.from(mesh.indices.buffer, mesh.indices.byteOffset, mesh.indices.byteLength);
  const bin = pad(Buffer.concat([positions, normals, indices]), 0);
  const vertexCount = mesh.positions.length / 3;
  const { min, max } = bounds(mesh.positions);
  const gltf = {
    asset: { version: '2.0', generator: 'Gatehouse simulator' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name }],
    meshes: [{ name, primitives: [{ attributes: { POSITION: 0, NORMAL: 1 }, indices: 2, material: 0, mode: 4 }] }],
    materials: [{ name: 'base', pbrMetallicRoughness: { baseColorFactor: mesh.color, metallicFactor: 0.1, roughnessFactor: 0.6 } }],
    accessors: [
      { bufferView: 0, componentType: FLOAT, count: vertexCount, type: 'VEC3', min, max },
      { bufferView: 1, componentType: FLOAT, count: vertexCount, type: 'VEC3' },
      { bufferView: 2, componentType: UNSIGNED_SHORT, count: mesh.indices.length, type: 'SCALAR' },
    ],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: positions.length, target: ARRAY_BUFFER },
      { buffer: 0, byteOffset: positions.length, byteLength: normals.length, target: ARRAY_BUFFER },
      { buffer: 0, byteOffset: positions.length + normals.length, byteLength: indices.length, target: ELEMENT_ARRAY_BUFFER },
    ],
    buffers: [{ byteLength: positions.length + normals.length + indices.length }],
  };
  const json = pad(Buffer.from(JSON.stringify(gltf), 'utf8'), 0x20);
  const total = 12 + 8 + json.length + 8 + bin.length;
  const header = Buffer.alloc(12);
  header.writeUInt32LE(GLB_MAGIC, 0);
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(total, 8);
  return Buffer.concat([header, chunkHeader(json.length, CHUNK_JSON), json, chunkHeader(bin.length, CHUNK_BIN), bin]);
}

function chunkHeader(length: number, type: number): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32LE(length, 0);
  header.writeUInt32LE(type, 4);
  return header;
}

/** Pads to a multiple of four bytes with `fill`. */
function pad(buffer: Buffer, fill: number): Buffer {
  const extra = (4 - (buffer.length % 4)) % 4;
  return extra === 0 ? buffer : Buffer.concat([buffer, Buffer.alloc(extra, fill)]);
}
