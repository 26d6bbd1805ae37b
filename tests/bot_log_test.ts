/**
 * No token in the bot's log: bot.py's HideTokens filter, run by Python's own logging on records
 * made as uvicorn makes them (its access line and its WebSocket line, format and arguments apart),
 * and put on both of uvicorn's loggers before the runner starts. scripts/check_pipecat_runtime.py
 * checks the same with Pipecat's real runner, where that environment exists.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { tempDir, voicebot } from "./helpers.ts";

const RECORDS = `
import json, logging, re, sys
source = open(sys.argv[1]).read()
namespace = {"re": re, "logging": logging}
exec(source[source.index("TOKEN_IN_LINE = "):source.index("async def require_start_token")], namespace)
hide = namespace["HideTokens"]()
records = [
    ('%s - "%s %s HTTP/%s" %d', ("127.0.0.1:5", "POST", "/daily-dialin-webhook?token=dial-secret", "1.1", 200)),
    ('%s - "WebSocket %s" [accepted]', ("127.0.0.1:5", "/ws-client?a=1&token=one-time.secret")),
    ('%s - "WebSocket %s" 403', ("127.0.0.1:5", "/ws-client?token=one-time.secret")),
    ("sent Authorization: Bearer start-secret", ()),
    ('%s - "%s %s HTTP/%s" %d', ("127.0.0.1:5", "GET", "/status", "1.1", 200)),
]
lines = []
for message, args in records:
    record = logging.LogRecord("uvicorn.access", logging.INFO, "uvicorn", 1, message, args, None)
    assert hide.filter(record)
    lines.append(record.getMessage())
print(json.dumps(lines))
`;

Deno.test("bot.py hides a URL's token and a bearer token in uvicorn's lines, and only those", async () => {
  await using dir = await tempDir();
  const made = await voicebot(
    [
      "init",
      "bot",
      ...["-t", "websocket", "-t", "hosted_pstn", "--daily-pstn-mode", "dial-in"],
      ...["-m", "cascade", "--stt", "openai_stt", "--llm", "openai_llm", "--tts", "openai_tts"],
    ],
    { cwd: dir.path },
  );
  assert.equal(made.code, 0, made.stderr);
  const bot = join(dir.path, "bot/server/bot.py");
  const out = await new Deno.Command("python3", { args: ["-c", RECORDS, bot] }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const lines: string[] = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.deepEqual(lines, [
    '127.0.0.1:5 - "POST /daily-dialin-webhook?token=<hidden> HTTP/1.1" 200',
    '127.0.0.1:5 - "WebSocket /ws-client?a=1&token=<hidden>" [accepted]',
    '127.0.0.1:5 - "WebSocket /ws-client?token=<hidden>" 403',
    "sent Authorization: Bearer <hidden>",
    '127.0.0.1:5 - "GET /status HTTP/1.1" 200',
  ]);
  // On both loggers uvicorn writes those lines with, before the runner's main() starts it.
  const source = await Deno.readTextFile(bot);
  const main = source.slice(source.indexOf('if __name__ == "__main__":'));
  assert.match(
    main,
    /for uvicorn_logger in \("uvicorn\.access", "uvicorn\.error"\):\n\s+logging\.getLogger\(uvicorn_logger\)\.addFilter\(HideTokens\(\)\)\n[^]*\n {4}main\(\)\n$/,
  );
});
