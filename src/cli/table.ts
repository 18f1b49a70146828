/**
 * The CLI's lists as aligned columns, as `docker ps` prints them: a header, one line per row, two
 * spaces between columns, numbers right-aligned, no trailing blanks. Widths are display cells
 * (string-width: wide East Asian characters and emoji take two), and characters that would move
 * the cursor or reorder the line (control characters, bidirectional overrides) are shown escaped,
 * so a key's name can neither misalign the table nor drive the operator's terminal.
 */
import stringWidth from "string-width";

export interface Column {
  readonly header: string;
  /** Right-aligned, for numbers. */
  readonly right?: boolean;
}

export type Cell = string | number | boolean | null | undefined;

const GAP = "  ";
/**
 * Controls (C0, DEL, C1), format characters (zero-width, bidirectional overrides, BOM) and line
 * separators; not the zero-width joiner, which holds emoji sequences together.
 */
const UNPRINTABLE = /(?!\u200d)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** A cell as shown: `-` for nothing, and every unprintable character as `\u{...}`. */
export function cellText(value: Cell): string {
  if (value === null || value === undefined || value === "") return "-";
  return String(value).replace(UNPRINTABLE, (c) => `\\u{${c.codePointAt(0)?.toString(16)}}`);
}

export function formatTable(
  columns: readonly (string | Column)[],
  rows: readonly (readonly Cell[])[],
): string {
  const specs = columns.map((c) => (typeof c === "string" ? { header: c } : c));
  const lines = [
    specs.map((c) => cellText(c.header)),
    ...rows.map((row) => specs.map((_, i) => cellText(row[i]))),
  ];
  const widths = specs.map((_, i) => Math.max(...lines.map((line) => stringWidth(line[i] ?? ""))));
  return lines
    .map((line) =>
      line
        .map((text, i) => {
          const pad = " ".repeat((widths[i] ?? 0) - stringWidth(text));
          return specs[i]?.right ? pad + text : text + pad;
        })
        .join(GAP)
        .trimEnd(),
    )
    .join("\n");
}

/** `16 KiB`, `1 MiB`, `1500 B`: a size as the docs write it. */
export function byteSize(n: number): string {
  if (n > 0 && n % 1_048_576 === 0) return `${n / 1_048_576} MiB`;
  if (n > 0 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} B`;
}
