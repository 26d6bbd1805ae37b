/** `voicebot cloud serve`: the secrets API. The server and database drivers load only when it runs. */
import { define } from "gunshi";

export default define({
  name: "serve",
  description: "Serve the secrets API (placeholder: the server lands with its own issue).",
  run: () => {
    console.log("not implemented yet");
  },
});
