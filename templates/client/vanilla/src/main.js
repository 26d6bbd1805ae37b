import { PipecatClient } from "@pipecat-ai/client-js";
import { DEFAULT_TRANSPORT, START_ENDPOINT, TRANSPORTS, USER_VIDEO } from "./config.js";
import "./style.css";

const connectButton = document.querySelector("#connect");
const micButton = document.querySelector("#mic");
const picker = document.querySelector("#transport"); // only when the bot serves several transports
const statusLine = document.querySelector("#status");
const errorLine = document.querySelector("#error");
const transcript = document.querySelector("#transcript");
const botAudio = document.querySelector("#bot-audio");
const botVideo = document.querySelector("#bot-video"); // only when the bot sends video
const userVideo = document.querySelector("#user-video"); // only when the bot watches the camera

const STATUS = {
  initializing: "Starting…",
  initialized: "Ready",
  authenticating: "Starting the bot…",
  connecting: "Connecting…",
  connected: "Waiting for the bot…",
  ready: "Connected",
  disconnecting: "Disconnecting…",
  disconnected: "Disconnected",
  error: "Error",
};

for (const [name, { label }] of Object.entries(TRANSPORTS)) picker?.add(new Option(label, name));

/** The client of the latest session; a new one is made for each session. */
let client = null;

connectButton.addEventListener(
  "click",
  () => (client?.connected ? client.disconnect() : connect()),
);

micButton.addEventListener("click", () => {
  client.enableMic(!client.isMicEnabled);
  micButton.textContent = client.isMicEnabled ? "Mute" : "Unmute";
});

async function connect() {
  const transport = TRANSPORTS[picker?.value ?? DEFAULT_TRANSPORT];
  errorLine.hidden = true;
  transcript.replaceChildren();
  micButton.textContent = "Mute";
  client = new PipecatClient({
    transport: transport.create(),
    enableMic: true,
    enableCam: USER_VIDEO,
    callbacks: {
      onTransportStateChanged: showState,
      onTrackStarted: attachTrack,
      onUserTranscript: ({ text, final }) => final && say("You", text),
      // A spoken sentence comes first as "new", then as progress; unspoken text has no status.
      onBotOutput: ({ text, spoken_status }) =>
        (spoken_status === "new" || spoken_status == null) && say("Bot", text),
    },
  });
  try {
    const answer = await client.startBot({
      endpoint: START_ENDPOINT,
      requestData: transport.request,
    });
    await client.connect(transport.connectParams?.(answer) ?? answer);
  } catch (error) {
    errorLine.textContent = `Could not start a session (${error.message}). ` +
      "Is the bot running? Start it with: cd server && uv run bot.py";
    errorLine.hidden = false;
    await client.disconnect();
  }
}

function showState(state) {
  const settled = ["initialized", "ready", "disconnected", "error"].includes(state);
  statusLine.textContent = STATUS[state] ?? state;
  connectButton.textContent = state === "ready" ? "Disconnect" : "Connect";
  connectButton.disabled = !settled;
  micButton.disabled = state !== "ready";
  if (picker) picker.disabled = state === "ready" || !settled;
}

/** Plays the bot's audio, and shows each video where the page has a place for it. */
function attachTrack(track, participant) {
  const element = participant?.local
    ? { video: userVideo }[track.kind] // the user's own audio is not played back
    : { audio: botAudio, video: botVideo }[track.kind];
  if (element) element.srcObject = new MediaStream([track]);
}

/** Adds to the transcript: onto the last line while the same speaker goes on, else a new line. */
function say(speaker, text) {
  let line = transcript.lastElementChild;
  if (line?.dataset.speaker !== speaker) {
    line = document.createElement("li");
    line.dataset.speaker = speaker;
    line.append(Object.assign(document.createElement("strong"), { textContent: speaker }), " ");
    line.append(document.createElement("span"));
    transcript.append(line);
  }
  const words = line.lastElementChild;
  const before = words.textContent;
  const spaced = before && !/\s$/.test(before) && !/^[\s,.!?;:]/.test(text);
  words.textContent = spaced ? `${before} ${text}` : before + text;
  line.scrollIntoView({ block: "end" });
}
