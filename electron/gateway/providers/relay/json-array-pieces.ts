// Cuts a JSON array arriving in chunks (Gemini's stream without alt=sse) into its elements as each one completes, so each can be read and rewritten as it passes.
/** Splits the text of a JSON array into pieces that each end with one whole element (objects and arrays; scalars pass in the rest). */
export class JsonArrayPieces {
  private text = '';
  private scanned = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private start = -1;

  /** Adds `chunk`; returns the pieces now complete: the text before an element and the element, rewritten by `edit`. */
  push(chunk: string, edit: (element: string) => string): string[] {
    this.text += chunk;
    const pieces: string[] = [];
    for (let i = this.scanned; i < this.text.length; i += 1) {
      const char = this.text[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (char === '\\') this.escaped = true;
        else if (char === '"') this.inString = false;
        continue;
      }
      if (char === '"') this.inString = true;
      else if (char === '{' || char === '[') {
        if (this.depth === 1 && this.start < 0) this.start = i;
        this.depth += 1;
      } else if (char === '}' || char === ']') {
        this.depth -= 1;
        if (this.depth === 1 && this.start >= 0) {
          pieces.push(this.text.slice(0, this.start) + edit(this.text.slice(this.start, i + 1)));
          this.text = this.text.slice(i + 1);
          this.start = -1;
          i = -1;
        }
      }
    }
    this.scanned = this.text.length;
    return pieces;
  }

  /** What is left once the array ended (its closing bracket, or a cut element as it came). */
  rest(): string {
    const rest = this.text;
    this.text = '';
    this.scanned = 0;
    return rest;
  }
}
