// Writes a mesh as Wavefront OBJ text: vertices, vertex normals and 1-based triangle faces.
import type { Mesh } from './geometry.ts';

export function toObj(mesh: Mesh, name: string): Buffer {
  const lines = [`# Gatehouse simulated 3D result`, `o ${name.replace(/\s+/g, '_') || 'mesh'}`];
  for (let i = 0; i < mesh.positions.length; i += 3) lines.push(`v ${fmt(mesh.positions, i)}`);
  for (let i = 0; i < mesh.normals.length; i += 3) lines.push(`vn ${fmt(mesh.normals, i)}`);
  for (let i = 0; i < mesh.indices.length; i += 3) {
    const [a, b, c] = [mesh.indices[i]! + 1, mesh.indices[i + 1]! + 1, mesh.indices[i + 2]! + 1];
    lines.push(`f ${a}//${a} ${b}//${b} ${c}//${c}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

function fmt(values: Float32Array, i: number): string {
  return [values[i]!, values[i + 1]!, values[i + 2]!].map((value) => value.toFixed(6)).join(' ');
}
