/**
 * The CSV reader DynoTable had before csv-parse (a hand-written RFC 4180 state machine), kept
 * only as the reference csv-import.bench.ts measures the library against. Not used by the app.
 */
export interface OldCsvField {
  text: string;
  quoted: boolean;
}

/**
 * An incremental RFC 4180 parser: feed chunks, get complete rows. It keeps whether each field
 * was quoted, which is how "" (empty string) differs from an empty cell (missing attribute).
 */
export class OldCsvParser {
  private field = '';
  private quoted = false;
  private inQuotes = false;
  private afterQuote = false;
  private row: OldCsvField[] = [];
  private pendingCr = false;

  push(chunk: string): OldCsvField[][] {
    const rows: OldCsvField[][] = [];
    for (const ch of chunk) {
      if (this.pendingCr) {
        this.pendingCr = false;
        if (ch === '\n') continue;
      }
      if (this.inQuotes) {
        if (ch === '"') {
          this.inQuotes = false;
          this.afterQuote = true;
        } else this.field += ch;
        continue;
      }
      if (ch === '"') {
        if (this.afterQuote) this.field += '"';
        this.inQuotes = true;
        this.quoted = true;
        this.afterQuote = false;
      } else if (ch === ',') this.endField();
      else if (ch === '\n' || ch === '\r') {
        this.pendingCr = ch === '\r';
        this.endField();
        rows.push(this.row);
        this.row = [];
      } else {
        this.field += ch;
        this.afterQuote = false;
      }
    }
    return rows;
  }

  end(): OldCsvField[][] {
    if (this.field === '' && !this.quoted && this.row.length === 0) return [];
    this.endField();
    const last = this.row;
    this.row = [];
    return [last];
  }

  private endField(): void {
    this.row.push({ text: this.field, quoted: this.quoted });
    this.field = '';
    this.quoted = false;
    this.afterQuote = false;
  }
}
