import assert from "node:assert/strict";
import { AuthError, NotFoundError, UsageError, VoicebotError } from "../errors.ts";
import { type RuntimeRead, UNCHANGED } from "./client.ts";
import { childEnvironment, type SetValues } from "./run.ts";
import { SetWatcher } from "./watch.ts";

type Answer = RuntimeRead | typeof UNCHANGED | Error;

/** A watcher over `sets` whose reader gives, per set, its answers in turn (the last one again). */
function watcher(sets: SetValues[], answers: Record<string, Answer[]>) {
  const said: string[] = [];
  const controller = new AbortController();
  const reader = {
    readRuntimeSetIfChanged(name: string) {
      const queue = answers[name];
      const answer = queue.length > 1 ? queue.shift()! : queue[0];
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
  const environmentOf = (values: SetValues[]) => childEnvironment({}, values);
  const watch = new SetWatcher(reader, sets, environmentOf(sets), {
    intervalMs: 1,
    environmentOf,
    say: (message) => void said.push(message),
    signal: controller.signal,
  });
  return { watch, said, controller };
}

/** Every wait bounded: a watcher that misses a change fails the test instead of hanging it. */
async function within<T>(promise: Promise<T>, ms = 5_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no change seen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

const ready = (name: string, secrets: [string, string][], tag: string): RuntimeRead => ({
  ready: true,
  name,
  region: "us-west",
  secrets,
  tag,
});

Deno.test("a change of one set gets through although another cannot be read", async () => {
  const sets = [
    { name: "a", secrets: [["A", "one"]] as [string, string][], tag: "1" },
    { name: "b", secrets: [["B", "bee"]] as [string, string][], tag: "1" },
  ];
  const { watch, said, controller } = watcher(sets, {
    a: [UNCHANGED, ready("a", [["A", "two"]], "2")],
    b: [new NotFoundError("gone")],
  });
  const next = await within(watch.changed()).finally(() => controller.abort());
  assert.equal(next.env.A, "two");
  assert.equal(next.env.B, "bee");
  assert.deepEqual(said, [
    "A watched set is gone, or this runtime key no longer reads it. The command keeps running " +
    "with the values it has; asking again with backoff.",
  ]);
});

Deno.test("trouble is said once and its end once; a change to the same environment is none", async () => {
  const sets = [{ name: "a", secrets: [["A", "one"]] as [string, string][], tag: "1" }];
  const down = new VoicebotError("cannot reach");
  const { watch, said } = watcher(sets, {
    a: [
      down,
      down,
      down,
      // Resealed: a new tag, the same values.
      ready("a", [["A", "one"]], "2"),
      UNCHANGED,
      // A variable that changes what runs: said, and the command keeps its values.
      ready("a", [["A", "one"], ["LD_PRELOAD", "/tmp/x.so"]], "3"),
      ready("a", [["A", "three"]], "4"),
    ],
  });
  const next = await within(watch.changed());
  assert.equal(next.env.A, "three");
  assert.equal(said.length, 3, said.join("\n"));
  assert.match(said[0], /^The API cannot be reached\. The command keeps running/);
  assert.equal(said[1], 'The API answers again: watching "a".');
  assert.match(said[2], /^The sets changed, but .*a: LD_PRELOAD changes which program runs/);
});

Deno.test("a 5xx and a revoked key are each said once, by what they are", async () => {
  const sets = [{ name: "a", secrets: [["A", "one"]] as [string, string][], tag: "1" }];
  const busy = new VoicebotError("busy", { api: { status: 503, code: "UNAVAILABLE" } });
  const { watch, said } = watcher(sets, {
    a: [
      busy,
      busy,
      new AuthError("revoked"),
      new AuthError("revoked"),
      ready("a", [["A", "2"]], "2"),
    ],
  });
  await within(watch.changed());
  assert.deepEqual(said.map((line) => line.split(". The command")[0]), [
    "The API answered 503 when asked whether the sets changed",
    "The runtime key was refused (revoked or expired?)",
    'The API answers again: watching "a".',
  ]);
});

Deno.test("the watch ends when its signal does", async () => {
  const sets = [{ name: "a", secrets: [["A", "one"]] as [string, string][] }];
  const { watch, controller } = watcher(sets, { a: [UNCHANGED] });
  const waiting = watch.changed();
  controller.abort(new UsageError("ended"));
  await assert.rejects(waiting, /ended/);
});
