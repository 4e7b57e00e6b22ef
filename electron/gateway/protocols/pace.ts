// The `x-gatehouse-pace` test header: how many stream pieces per second a simulated answer is paced at.

/** Streaming pace from `x-gatehouse-pace` (pieces per second), when given as a positive number. */
export function paceOfHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): number | undefined {
  const value = Number(headers['x-gatehouse-pace']);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
