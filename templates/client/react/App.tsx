import { PipecatAppBase } from "@pipecat-ai/voice-ui-kit";
import { useState } from "react";
import {
  type BotTransport,
  DEFAULT_TRANSPORT,
  TRANSPORTS,
  type TransportType,
  USER_VIDEO,
} from "./config";
import { Session } from "./Session";

// Module-level so it stays the same object: PipecatAppBase makes a new client when it changes.
const CLIENT_OPTIONS = { enableMic: true, enableCam: USER_VIDEO };

/** One Pipecat client for the chosen transport; picking another transport replaces it. */
export function App() {
  const [transport, setTransport] = useState<TransportType>(DEFAULT_TRANSPORT);
  const chosen: BotTransport = TRANSPORTS[transport];

  return (
    <PipecatAppBase
      transportType={transport}
      startBotParams={chosen.start}
      startBotResponseTransformer={chosen.connectParams}
      clientOptions={CLIENT_OPTIONS}
    >
      {({ client, handleConnect, handleDisconnect, error }) =>
        client
          ? (
            <Session
              transport={transport}
              onTransportChange={setTransport}
              onConnect={handleConnect}
              onDisconnect={handleDisconnect}
              error={error}
            />
          )
          : <p className="loading">Loading…</p>}
    </PipecatAppBase>
  );
}
