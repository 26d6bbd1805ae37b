import {
  BotAudioPanel,
  BotVideoPanel,
  ConnectButton,
  Conversation,
  ErrorCard,
  usePipecatConnectionState,
  UserAudioControl,
  UserVideoControl,
} from "@pipecat-ai/voice-ui-kit";
import { BOT_VIDEO, TITLE, TRANSPORTS, type TransportType, USER_VIDEO } from "./config";

const TRANSPORT_TYPES = Object.keys(TRANSPORTS) as TransportType[];

interface SessionProps {
  transport: TransportType;
  onTransportChange: (transport: TransportType) => void;
  onConnect?: () => void;
  onDisconnect?: () => void;
  error?: string | null;
}

/** The call screen: controls, the bot's audio or video, the user's camera and the conversation. */
export function Session(
  { transport, onTransportChange, onConnect, onDisconnect, error }: SessionProps,
) {
  const { isDisconnected } = usePipecatConnectionState();

  return (
    <main className="app">
      <header className="toolbar">
        <h1>{TITLE}</h1>
        {TRANSPORT_TYPES.length > 1 && (
          <label className="transport">
            Transport
            <select
              value={transport}
              disabled={!isDisconnected}
              onChange={(event) => onTransportChange(event.target.value as TransportType)}
            >
              {TRANSPORT_TYPES.map((type) => (
                <option key={type} value={type}>{TRANSPORTS[type].label}</option>
              ))}
            </select>
          </label>
        )}
        <UserAudioControl />
        <ConnectButton onConnect={onConnect} onDisconnect={onDisconnect} />
      </header>

      {error && (
        <ErrorCard title="Could not start a session">
          {error}. Is the bot running? Start it with <code>uv run bot.py</code> in server/.
        </ErrorCard>
      )}

      <section className="media" aria-label="Media">
        {BOT_VIDEO ? <BotVideoPanel /> : <BotAudioPanel />}
        {USER_VIDEO && (
          <div className="camera">
            <UserVideoControl />
          </div>
        )}
      </section>

      <section className="conversation" aria-label="Conversation">
        <Conversation />
      </section>
    </main>
  );
}
