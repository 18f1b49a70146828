import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { byteSize, cellText, formatTable } from "./table.ts";

describe("CLI tables", () => {
  it("aligns every column under its header, two spaces apart, numbers to the right, no trailing blanks", () => {
    const text = formatTable(
      ["ID", { header: "CREDITS", right: true }, "NAME"],
      [
        ["key_a", 5, "ci"],
        ["key_bbbbbb", 100000, ""],
      ],
    );
    assert.equal(
      text,
      ["ID          CREDITS  NAME", "key_a             5  ci", "key_bbbbbb   100000  -"].join("\n"),
    );
  });

  it("shows nothing (null, undefined, an empty string) as -, and booleans as true or false", () => {
    assert.equal(
      formatTable(["A", "B", "C", "D"], [[null, undefined, "", false]]),
      "A  B  C  D\n-  -  -  false",
    );
  });

  it("measures wide characters and emoji by the cells they take on a terminal", () => {
    const lines = formatTable(
      ["NAME", "PLAN"],
      [
        ["日本語", "free"],
        ["👩‍💻 ops", "builder"],
        ["ascii", "free"],
      ],
    ).split("\n");
    // 日本語 is six cells wide, 👩‍💻 two: PLAN starts at cell 8 on every line.
    assert.deepEqual(lines, ["NAME    PLAN", "日本語  free", "👩‍💻 ops  builder", "ascii   free"]);
  });

  it("escapes what would move the cursor or reorder the line, so a name cannot drive the terminal", () => {
    assert.equal(cellText("evil\u001b[2J"), "evil\\u{1b}[2J");
    assert.equal(cellText("two\nlines\r\ttab"), "two\\u{a}lines\\u{d}\\u{9}tab");
    assert.equal(cellText("abc\u202edcba"), "abc\\u{202e}dcba");
    assert.equal(cellText("\u0085\u2028\ufeffx"), "\\u{85}\\u{2028}\\u{feff}x");
    const table = formatTable(["NAME", "PLAN"], [["a\nb", "free"]]);
    assert.equal(table.split("\n").length, 2, "one line per row");
  });

  it("writes sizes as the docs do", () => {
    assert.equal(byteSize(16_384), "16 KiB");
    assert.equal(byteSize(1_048_576), "1 MiB");
    assert.equal(byteSize(1500), "1500 B");
    assert.equal(byteSize(0), "0 B");
  });
});
