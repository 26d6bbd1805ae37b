/**
 * `deno task bench`: every benchmark, one named section after another. Measured and reported,
 * never asserted. `deno task bench server` runs only the sections named.
 *
 * To add a section, add one entry below whose `run` imports its module lazily.
 */

interface Section {
  name: string;
  run: () => Promise<void>;
}

const SECTIONS: Section[] = [
  { name: "cli", run: async () => (await import("./bench_cli.ts")).benchCli() },
  { name: "server", run: async () => (await import("./bench_server.ts")).benchServer() },
  { name: "operator", run: async () => (await import("./bench_operator.ts")).benchOperator() },
  { name: "migrate", run: async () => (await import("./bench_migrate.ts")).benchMigrate() },
];

async function main(names: string[]) {
  const unknown = names.filter((name) => !SECTIONS.some((section) => section.name === name));
  if (unknown.length) {
    throw new Error(
      `unknown section ${unknown.join(", ")}; sections: ${SECTIONS.map((s) => s.name).join(", ")}`,
    );
  }
  for (const section of SECTIONS) {
    if (names.length && !names.includes(section.name)) continue;
    console.log(`\n=== ${section.name} ===`);
    await section.run();
  }
}

if (import.meta.main) await main(Deno.args);
