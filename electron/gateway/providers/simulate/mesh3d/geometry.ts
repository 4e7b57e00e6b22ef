// Triangle meshes for simulated 3D results: a torus whose proportions, detail and colour come from a hash of the prompt.
import { createHash } from 'node:crypto';

/** An indexed triangle mesh with one normal per vertex. */
export interface Mesh {
  positions: Float32Array;
  normals: Float32Array;
  /** Three vertex indices per triangle. */
  indices: Uint16Array;
  /** Base colour, RGBA in [0, 1]. */
  color: [number, number, number, number];
}

/** The mesh a prompt stands for: the same prompt always gives the same mesh. */
export function meshForPrompt(prompt: string): Mesh {
  const digest = createHash('sha256').update(prompt, 'utf8').digest();
  const unit = (i: number) => digest[i]! / 255;
  const major = 0.6 + 0.4 * unit(0);
  const minor = 0.12 + 0.23 * unit(1);
  const rings = 16 + Math.floor(16 * unit(2));
  const sides = 8 + Math.floor(8 * unit(3));
  return torus(major, minor, rings, sides, [0.2 + 0.8 * unit(4), 0.2 + 0.8 * unit(5), 0.2 + 0.8 * unit(6), 1]);
}

/** A torus around the Y axis with `rings` × `sides` quads. */
export function torus(major: number, minor: number, rings: number, sides: number, color: Mesh['color']): Mesh {
  const positions: number[] = [];
  const normals: number[] = [];
  for (let i = 0; i <= rings; i++) {
    const u = (i / rings) * 2 * Math.PI;
    for (let j = 0; j <= sides; j++) {
      const v = (j / sides) * 2 * Math.PI;
      const nx = Math.cos(v) * Math.cos(u);
      const ny = Math.sin(v);
      const nz = Math.cos(v) * Math.sin(u);
      positions.push(major * Math.cos(u) + minor * nx, minor * ny, major * Math.sin(u) + minor * nz);
      normals.push(nx, ny, nz);
    }
  }
  const indices: number[] = [];
  const row = sides + 1;
  for (let i = 0; i < rings; i++) {
    for (let j = 0; j < sides; j++) {
      const a = i * row + j;
      const b = (i + 1) * row + j;
      indices.push(a, a + 1, b, b, a + 1, b + 1);
    }
  }
  return { positions: Float32Array.from(positions), normals: Float32Array.from(normals), indices: Uint16Array.from(indices), color };
}

/** Per-axis minimum and maximum of the positions (glTF requires them on POSITION). */
export function bounds(positions: Float32Array): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    const axis = i % 3;
    min[axis] = Math.min(min[axis]!, positions[i]!);
    max[axis] = Math.max(max[axis]!, positions[i]!);
  }
  return { min, max };
}

/** The corners of triangle `t`, as three [x, y, z] points. */
export function triangle(mesh: Mesh, t: number): [Point, Point, Point] {
  const corner = (k: number): Point => {
    const v = mesh.indices[t * 3 + k]!;
    return [mesh.positions[v * 3]!, mesh.positions[v * 3 + 1]!, mesh.positions[v * 3 + 2]!];
  };
  return [corner(0), corner(1), corner(2)];
}

/** A point in space. */
export type Point = [number, number, number];
