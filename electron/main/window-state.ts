// Remembers the window's size and position in a small JSON file in the app's userData folder.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Size and, when known, position of the main window. */
export interface WindowBounds {
  width: number;
  height: number;
  x?: number;
  y?: number;
  maximized?: boolean;
}

/** A display's usable area, to check that a remembered position is still on screen. */
export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_BOUNDS: WindowBounds = { width: 1280, height: 820 };
export const MIN_SIZE = { width: 900, height: 600 };

const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/**
 * Reads the remembered bounds; anything unreadable gives the defaults, sizes are kept at least the
 * minimum, and a position whose top-left corner is on no current display is dropped (the OS centres the window).
 */
export function loadBounds(file: string, displays: Area[]): WindowBounds {
  let saved: Record<string, unknown>;
  try {
    saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return { ...DEFAULT_BOUNDS };
  }
  if (saved === null || typeof saved !== 'object') return { ...DEFAULT_BOUNDS };
  const bounds: WindowBounds = {
    width: isInt(saved['width']) ? Math.max(MIN_SIZE.width, saved['width']) : DEFAULT_BOUNDS.width,
    height: isInt(saved['height']) ? Math.max(MIN_SIZE.height, saved['height']) : DEFAULT_BOUNDS.height,
    ...(saved['maximized'] === true && { maximized: true }),
  };
  const { x, y } = saved;
  if (isInt(x) && isInt(y) && displays.some((area) => x >= area.x && y >= area.y && x < area.x + area.width && y < area.y + area.height)) {
    bounds.x = x;
    bounds.y = y;
  }
  return bounds;
}

/** Writes the bounds (through a temporary file, so a crash never leaves half a file). */
export function saveBounds(file: string, bounds: WindowBounds): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, JSON.stringify(bounds));
  renameSync(temporary, file);
}
