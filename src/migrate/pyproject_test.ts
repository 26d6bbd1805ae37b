import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  floorOf,
  lockedVersion,
  movedRequirement,
  movePyproject,
  pipecatRequirements,
  ruffLineLength,
} from "./pyproject.ts";

const NONE = new Map<string, string>();

Deno.test("the floor a requirement asks for, under each of its spellings", () => {
  assertEquals(floorOf("pipecat-ai[daily]>=1.2.0,<1.3"), "1.2.0");
  assertEquals(floorOf("pipecat_ai == 1.4.1"), "1.4.1");
  assertEquals(floorOf("Pipecat.AI~=1.5"), "1.5");
  assertEquals(floorOf("pipecat-ai"), null);
  assertEquals(floorOf("pipecat-ai<2"), null);
});

Deno.test("a requirement moved to a release: floor raised, a bound below it moved past it", () => {
  assertEquals(
    movedRequirement("pipecat-ai[daily,openai]>=1.2.0,<1.3", "1.7.0", NONE),
    "pipecat-ai[daily,openai]>=1.7.0,<1.8",
  );
  assertEquals(movedRequirement("pipecat-ai==1.2.0", "1.7.0", NONE), "pipecat-ai==1.7.0");
  assertEquals(movedRequirement("pipecat-ai>=1.2,<2", "1.7.0", NONE), "pipecat-ai>=1.7.0,<2");
  assertEquals(movedRequirement("pipecat-ai", "1.7.0", NONE), "pipecat-ai>=1.7.0");
  assertEquals(
    movedRequirement('pipecat-ai[daily]>=1.2.0 ; python_version >= "3.11"', "1.7.0", NONE),
    'pipecat-ai[daily]>=1.7.0 ; python_version >= "3.11"',
  );
  // Already there: nothing to write.
  assertEquals(movedRequirement("pipecat-ai>=1.7.0,<1.8", "1.7.0", NONE), null);
});

Deno.test("a renamed extra takes its new name, once", () => {
  const extras = new Map([["webrtc", "webrtc-video"]]);
  assertEquals(
    movedRequirement("pipecat-ai[daily,webrtc]>=1.7.0", "1.7.0", extras),
    "pipecat-ai[daily,webrtc-video]>=1.7.0",
  );
  assertEquals(
    movedRequirement("pipecat-ai[webrtc-video, webrtc]>=1.7.0", "1.7.0", extras),
    "pipecat-ai[webrtc-video]>=1.7.0",
  );
});

Deno.test("pyproject.toml: every pipecat-ai requirement moved, every other byte kept", () => {
  const text = `[project]
name = "bot"  # mine
dependencies = [
    "pipecat-ai[daily]>=1.2.0,<1.3",
    "python-dotenv>=1.0",
]

[project.optional-dependencies]
local = ['pipecat-ai[kokoro]>=1.2.0']

[dependency-groups]
dev = ["pipecat-ai[runner]==1.2.0", "ruff"]

[tool.ruff]
line-length = 100
`;
  assertEquals(pipecatRequirements(text).length, 3);
  assertEquals(
    movePyproject(text, "1.7.0", NONE),
    text.replace("[daily]>=1.2.0,<1.3", "[daily]>=1.7.0,<1.8")
      .replace("[kokoro]>=1.2.0", "[kokoro]>=1.7.0")
      .replace("[runner]==1.2.0", "[runner]==1.7.0"),
  );
  assertEquals(ruffLineLength(text), 100);
  assertEquals(ruffLineLength("[project]\n"), 88);
  assertEquals(ruffLineLength(null), 88);
});

Deno.test("uv.lock: the version it pins", () => {
  const lock =
    'version = 1\n\n[[package]]\nname = "pipecat-ai"\nversion = "1.2.1"\nsource = { registry = "https://pypi.org/simple" }\n';
  assertEquals(lockedVersion(lock), "1.2.1");
  assertEquals(
    lockedVersion('version = 1\n\n[[package]]\nname = "ruff"\nversion = "0.16.9"\n'),
    null,
  );
});
