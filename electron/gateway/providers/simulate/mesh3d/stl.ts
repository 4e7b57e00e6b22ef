// Writes a mesh as binary STL: an 80-byte header, the triangle count, and 50 bytes per triangle (normal, three corners, attribute).
import { triangle, type Mesh } from './geometry.ts';

export function toStl(mesh: Mesh, name: string): Buffer {
  const count = mesh.indices.length / 3;
  const out = Buffer.alloc(84 + count * 50);
  out.write(`Gatehouse simulated 3D result: ${name}`.slice(0, 80), 0, 'ascii');
  out.writeUInt32LE(count, 80);
  for (let t = 0; t < count; t++) {
    const [a, b, c] = triangle(mesh, t);
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const n = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
    const length = Math.hypot(n[0]!, n[1]!, n[2]!) || 1;
    let offset = 84 + t * 50;
    for (const value of [...n.map((x) => x / length), ...a, ...b, ...c]) {
      out.writeFloatLE(value, offset);
      offset += 4;
    }
    out.writeUInt16LE(0, offset);
  }
  return out;
}
