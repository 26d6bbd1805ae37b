/** `voicebot init`: its options and help; what it does is init_action.ts's. */
import { define } from "gunshi";
import { NO_COLOR } from "./output.ts";
import { SCAFFOLD_ARGS, text } from "./scaffold_options.ts";
import { runInit } from "./init_action.ts";

export default define({
  name: "init",
  description:
    "Create a bot project: guides for a coding agent (`init DIR`), a scaffolded Pipecat bot (scaffold options or --config), or the quickstart (`init quickstart`).\n" +
    "With no scaffold option, --config or quickstart: on a terminal it asks the questions (the wizard); with no terminal, or with --coding-agent, it writes the guides for a coding agent.",
  helpExamples: [
    [
      "The quickstart: a web bot on SmallWebRTC, in ./voicebot-quickstart",
      "voicebot init quickstart",
    ],
    [
      "A phone bot on Twilio, from flags",
      "voicebot init my-bot -t carrier1 -m cascade --stt deepgram_stt --llm openai_llm --tts cartesia_tts",
    ],
    [
      "From a JSON config file; flags override its values",
      "voicebot init my-bot --config voicebot.json",
    ],
    [
      "The configuration it would use, as JSON; nothing written",
      "voicebot init my-bot -t lightweb -m realtime --realtime openai_realtime --dry-run",
    ],
    ["Guides for a coding agent only, even on a terminal", "voicebot init my-bot --coding-agent"],
  ],
  environment: [NO_COLOR],
  args: {
    dir: {
      type: "positional",
      required: false,
      description:
        "Directory to initialize: a name means ./<name>, `.` the current one; `quickstart` scaffolds the quickstart preset into ./voicebot-quickstart",
    },
    "overwrite-guide": {
      type: "boolean",
      description: "Overwrite existing AGENTS.md, ASSISTANT.md and GETTING_STARTED.md",
    },
    "coding-agent": {
      type: "boolean",
      description:
        "Write the guides for a coding agent and ask nothing, even in a terminal (in a scaffolded project: its own guides)",
    },
    ...SCAFFOLD_ARGS,
    config: text(
      "JSON config file (its keys: on the page under Learn more); flags override its values",
      "c",
    ),
    "dry-run": {
      type: "boolean",
      description:
        "List the files it would write, a scaffold's configuration as JSON; write nothing",
    },
    "list-options": {
      type: "boolean",
      description: "Print every transport and service as JSON, and exit",
    },
  },
  run: (ctx) => runInit(ctx),
});
