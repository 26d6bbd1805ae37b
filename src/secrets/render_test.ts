import assert from "node:assert/strict";
import { table } from "./render.ts";

Deno.test("table: box-drawn, a line between rows; colours and wide characters keep columns straight", () => {
  const out = table(["Name", "Status"]);
  out.push(["a", "\x1b[32mready\x1b[0m"]);
  out.push(["bbbbbb", "x"]);
  out.push(["日本", ""]);
  out.push(["😀 x", "é"]);
  assert.equal(
    out.toString(),
    [
      "┌────────┬────────┐",
      "│ Name   │ Status │",
      "├────────┼────────┤",
      "│ a      │ \x1b[32mready\x1b[0m  │",
      "├────────┼────────┤",
      "│ bbbbbb │ x      │",
      "├────────┼────────┤",
      "│ 日本   │        │",
      "├────────┼────────┤",
      "│ 😀 x   │ é      │",
      "└────────┴────────┘",
    ].join("\n"),
  );
  assert.equal(table(["A"]).toString(), "┌───┐\n│ A │\n└───┘");
});
