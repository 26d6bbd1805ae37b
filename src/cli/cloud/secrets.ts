/** The `cloud secrets` group. */
import { define } from "gunshi";
import set from "./secrets_set.ts";

export default define({
  name: "secrets",
  description: "Manage secret sets and image pull secrets",
  subCommands: { set },
  run: () => {
    console.log("Usage: voicebot cloud secrets <set|diff|image-pull-secret> ...");
  },
});
