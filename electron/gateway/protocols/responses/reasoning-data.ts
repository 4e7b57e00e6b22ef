// The opaque datum of a Responses API reasoning item as the neutral model keeps it: the item's id and its encrypted content in one string, both needed to send it back.

/** `<item id>:<encrypted content>` (neither contains a colon). */
export function packReasoning(id: unknown, encrypted: string): string {
  return typeof id === 'string' && id !== '' && !id.includes(':') ? `${id}:${encrypted}` : encrypted;
}

/** The item id (when the datum has one) and the encrypted content. */
export function unpackReasoning(data: string): { id?: string; encrypted: string } {
  const at = data.indexOf(':');
  return at > 0 ? { id: data.slice(0, at), encrypted: data.slice(at + 1) } : { encrypted: data };
}
