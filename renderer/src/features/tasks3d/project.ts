// A tiny software renderer: projects a mesh turned by an angle onto a 2D canvas with flat shading, far triangles first.
import type { Mesh } from './glb.ts';

/** The 2D drawing calls the renderer uses (a CanvasRenderingContext2D fits). */
export interface Painter {
  clearRect(x: number, y: number, width: number, height: number): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
  fill(): void;
  fillStyle: unknown;
}

/** Centre and radius of the mesh, so it fills the view whatever its units. */
export function boundsOf(mesh: Mesh): { center: [number, number, number]; radius: number } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < mesh.positions.length; i += 3) {
    for (let axis = 0; axis < 3; axis++) {
      min[axis] = Math.min(min[axis]!, mesh.positions[i + axis]!);
      max[axis] = Math.max(max[axis]!, mesh.positions[i + axis]!);
    }
  }
  const center: [number, number, number] = [(min[0]! + max[0]!) / 2, (min[1]! + max[1]!) / 2, (min[2]! + max[2]!) / 2];
  const radius = Math.max(1e-9, Math.hypot(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!) / 2);
  return { center, radius };
}

/** Draws the mesh turned by `angle` radians about the vertical axis (and tilted a little), in `color` shades. */
export function drawMesh(painter: Painter, mesh: Mesh, angle: number, width: number, height: number, hue = 210): number {
  const { center, radius } = boundsOf(mesh);
  const scale = (Math.min(width, height) * 0.42) / radius;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const tilt = 0.35;
  const cosT = Math.cos(tilt);
  const sinT = Math.sin(tilt);
  const count = mesh.positions.length / 3;
  const projected = new Float32Array(count * 3);
  for (let i = 0; i < count; i++) {
    const x = mesh.positions[i * 3]! - center[0];
    const y = mesh.positions[i * 3 + 1]! - center[1];
    const z = mesh.positions[i * 3 + 2]! - center[2];
    const rx = x * cos + z * sin;
    const rz = -x * sin + z * cos;
    const ty = y * cosT - rz * sinT;
    const tz = y * sinT + rz * cosT;
    projected[i * 3] = width / 2 + rx * scale;
    projected[i * 3 + 1] = height / 2 - ty * scale;
    projected[i * 3 + 2] = tz;
  }
  const triangles: Array<{ a: number; b: number; c: number; depth: number; light: number }> = [];
  for (let t = 0; t + 2 < mesh.indices.length; t += 3) {
    const a = mesh.indices[t]!;
    const b = mesh.indices[t + 1]!;
    const c = mesh.indices[t + 2]!;
    const [ax, ay, az] = [projected[a * 3]!, projected[a * 3 + 1]!, projected[a * 3 + 2]!];
    const [bx, by, bz] = [projected[b * 3]!, projected[b * 3 + 1]!, projected[b * 3 + 2]!];
    const [cx, cy, cz] = [projected[c * 3]!, projected[c * 3 + 1]!, projected[c * 3 + 2]!];
    // Normal in screen space (y down): its z part says how much the face looks at the viewer.
    const ux = bx - ax,
      uy = by - ay,
      uz = (bz - az) * scale;
    const vx = cx - ax,
      vy = cy - ay,
      vz = (cz - az) * scale;
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    const length = Math.hypot(nx, ny, nz) || 1;
    triangles.push({ a, b, c, depth: (az + bz + cz) / 3, light: Math.abs(nz) / length });
  }
  triangles.sort((left, right) => left.depth - right.depth);
  painter.clearRect(0, 0, width, height);
  for (const { a, b, c, light } of triangles) {
    painter.fillStyle = `hsl(${hue} 55% ${Math.round(25 + light * 50)}%)`;
    painter.beginPath();
    painter.moveTo(projected[a * 3]!, projected[a * 3 + 1]!);
    painter.lineTo(projected[b * 3]!, projected[b * 3 + 1]!);
    painter.lineTo(projected[c * 3]!, projected[c * 3 + 1]!);
    painter.closePath();
    painter.fill();
  }
  return triangles.length;
}
