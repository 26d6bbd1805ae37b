import assert from "node:assert/strict";
import fc from "fast-check";
import {
  below,
  formatRange,
  intersect,
  intersectAll,
  parseRange,
  satisfies,
} from "./client_engines.ts";

const norm = (range: string) => formatRange(parseRange(range));

Deno.test("the ranges npm packages declare for Node parse to what they mean", () => {
  const cases: [string, string][] = [
    [">=22.14.0", ">=22.14.0"],
    [">= 12.0.0", ">=12.0.0"],
    [">=0.8.x", ">=0.8.0"],
    [">=14.18", ">=14.18.0"],
    [">=6", ">=6.0.0"],
    ["^20.19.0 || >=22.12.0", "^20.19.0 || >=22.12.0"],
    // ^13.7 and ^14 touch: one interval.
    [
      "^10 || ^12 || ^13.7 || ^14 || >=15.0.1",
      "^10.0.0 || ^12.0.0 || >=13.7.0 <15.0.0 || >=15.0.1",
    ],
    ["^10 || ^12 || >=14", "^10.0.0 || ^12.0.0 || >=14.0.0"],
    ["^0.2.3", "^0.2.3"],
    ["^0.0.3", "^0.0.3"],
    ["~1.2.3", ">=1.2.3 <1.3.0"],
    ["1.2.x", ">=1.2.0 <1.3.0"],
    ["1.2.3", "1.2.3"],
    [">=14 <16", ">=14.0.0 <16.0.0"],
    [">1.2", ">=1.3.0"],
    [">1.2.3", ">1.2.3"],
    ["<=1.2", "<1.3.0"],
    ["*", "*"],
    ["", "*"],
    [">=18 <16", "<0.0.0"],
  ];
  for (const [range, expected] of cases) assert.equal(norm(range), expected, range);
  assert.throws(() => parseRange("1.2.3 - 2.3.4"), /hyphen/);
  assert.throws(() => parseRange(">=22.0.0-rc.1"), /unsupported version/);
});

Deno.test("intersections of Node ranges", () => {
  const cases: [string[], string][] = [
    [[">=22.14.0", "^20.19.0 || >=22.12.0"], ">=22.14.0"],
    [[">=22.14.0", ">=20.9.0", ">= 10"], ">=22.14.0"],
    [["^20.19.0 || >=22.12.0", ">=20.9.0"], "^20.19.0 || >=22.12.0"],
    [["^20.19.0 || >=22.12.0", "<21"], "^20.19.0"],
    [["^18 || ^20", "^20.5 || ^22"], "^20.5.0"],
    [["^18 || >=20", "<=20.5 || >=23"], "^18.0.0 || >=20.0.0 <20.6.0 || >=23.0.0"],
    [["^18", ">=20"], "<0.0.0"],
    [[], "*"],
  ];
  for (const [ranges, expected] of cases) {
    assert.equal(formatRange(intersectAll(ranges)), expected, ranges.join(" & "));
  }
});

Deno.test("satisfies and below", () => {
  const range = parseRange("^20.19.0 || >=22.12.0");
  assert.ok(satisfies("v20.19.0", range));
  assert.ok(satisfies("20.20.2", range));
  assert.ok(!satisfies("21.0.0", range));
  assert.ok(!below("21.0.0", range), "21 is in the gap, not below");
  assert.ok(below("v20.18.9", range));
  assert.ok(satisfies("24.0.0", range));
  assert.ok(below("20.20.2", parseRange(">=22.14.0")));
  assert.ok(!satisfies("1.2.3", parseRange(">1.2.3")));
});

// Ranges and versions over small numbers, so that bounds meet often.
const part = fc.integer({ min: 0, max: 3 });
const version = fc.tuple(part, part, part).map((parts) => parts.join("."));
const partialVersion = fc.oneof(
  version,
  fc.tuple(part, part).map((parts) => parts.join(".")),
  part.map(String),
  fc.tuple(part, part).map(([a, b]) => `${a}.${b}.x`),
);
const comparatorText = fc.tuple(
  fc.constantFrom(">=", ">", "<", "<=", "^", "~", "", "= "),
  partialVersion,
).map(([operator, v]) => operator + v);
const rangeText = fc.array(
  fc.array(comparatorText, { minLength: 1, maxLength: 2 }).map((set) => set.join(" ")),
  { minLength: 1, maxLength: 3 },
).map((sets) => sets.join(" || "));

Deno.test("a version is in an intersection exactly when it is in both ranges", () => {
  fc.assert(fc.property(rangeText, rangeText, version, (a, b, v) => {
    const both = intersect(parseRange(a), parseRange(b));
    assert.equal(satisfies(v, both), satisfies(v, parseRange(a)) && satisfies(v, parseRange(b)));
  }));
});

Deno.test("a formatted range means what it was made from", () => {
  fc.assert(fc.property(rangeText, version, (text, v) => {
    const range = parseRange(text);
    assert.equal(satisfies(v, parseRange(formatRange(range))), satisfies(v, range), text);
  }));
});
