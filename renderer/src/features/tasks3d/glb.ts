// Reads the triangle mesh out of a GLB (glTF 2.0 binary): positions and indices of every triangle primitive.

/** A merged triangle mesh. */
export interface Mesh {
  positions: Float32Array;
  /** Three indices per triangle. */
  indices: Uint32Array;
}

const MAGIC = 0x46546c67; // 'glTF'
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;
const COMPONENT_BYTES: Record<number, number> = { 5121: 1, 5123: 2, 5125: 4, 5126: 4 };

interface Accessor {
  bufferView?: number;
  byteOffset?: number;
  componentType: number;
  count: number;
  type: string;
}
interface BufferView {
  byteOffset?: number;
  byteLength: number;
  byteStride?: number;
}
interface Gltf {
  accessors?: Accessor[];
  bufferViews?: BufferView[];
  meshes?: Array<{ primitives: Array<{ attributes: Record<string, number>; indices?: number; mode?: number }> }>;
}

/** Parses a GLB; throws an Error naming what is wrong when the file is not a usable glTF 2.0 binary. */
export function parseGlb(data: ArrayBuffer): Mesh {
  const view = new DataView(data);
  if (data.byteLength < 20 || view.getUint32(0, true) !== MAGIC) throw new Error('not a GLB file (bad magic)');
  if (view.getUint32(4, true) !== 2) throw new Error('only glTF 2.0 binaries are supported');
  let json: Gltf | undefined;
  let bin: DataView | undefined;
  for (let offset = 12; offset + 8 <= Math.min(view.getUint32(8, true), data.byteLength);) {
    const length = view.getUint32(offset, true);
    const type = view.getUint32(offset + 4, true);
    const start = offset + 8;
    if (type === CHUNK_JSON) json = JSON.parse(new TextDecoder().decode(new Uint8Array(data, start, length))) as Gltf;
    if (type === CHUNK_BIN) bin = new DataView(data, start, length);
    offset = start + length;
  }
  if (!json || !bin) throw new Error('the GLB lacks its JSON or binary chunk');
  const gltf = json;
  const binary = bin;

  const read = (index: number, components: number): number[] => {
    const accessor = gltf.accessors?.[index];
    const bufferView = accessor?.bufferView === undefined ? undefined : gltf.bufferViews?.[accessor.bufferView];
    if (!accessor || !bufferView) throw new Error(`accessor ${index} has no buffer view`);
    const size = COMPONENT_BYTES[accessor.componentType];
    if (!size) throw new Error(`unsupported component type ${accessor.componentType}`);
    const stride = bufferView.byteStride ?? size * components;
    const base = (bufferView.byteOffset ?? 0) + (accessor.byteOffset ?? 0);
    const values: number[] = [];
    for (let item = 0; item < accessor.count; item++) {
      for (let component = 0; component < components; component++) {
        const at = base + item * stride + component * size;
        if (at + size > binary.byteLength) throw new Error('an accessor reads past the binary chunk');
        values.push(
          accessor.componentType === 5126
            ? binary.getFloat32(at, true)
            : size === 1
              ? binary.getUint8(at)
              : size === 2
                ? binary.getUint16(at, true)
                : binary.getUint32(at, true),
        );
      }
    }
    return values;
  };

  const positions: number[] = [];
  const indices: number[] = [];
  for (const mesh of gltf.meshes ?? []) {
    for (const primitive of mesh.primitives) {
      if ((primitive.mode ?? 4) !== 4 || primitive.attributes['POSITION'] === undefined) continue;
      const first = positions.length / 3;
      const points = read(primitive.attributes['POSITION'], 3);
      positions.push(...points);
      const own = primitive.indices === undefined ? points.map((_value, i) => i).slice(0, points.length / 3) : read(primitive.indices, 1);
      for (const index of own) indices.push(first + index);
    }
  }
  if (indices.length < 3) throw new Error('the GLB holds no triangles');
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}
