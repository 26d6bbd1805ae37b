/** The `cloud secrets` group. */
import { define } from "gunshi";
import set from "./secrets_set.ts";
import diff from "./secrets_diff.ts";
import imagePullSecret from "./secrets_image_pull_secret.ts";

export default define({
  name: "secrets",
  description: "Manage secret sets and image pull secrets",
  subCommands: { set, diff, "image-pull-secret": imagePullSecret },
  run: () => {
    console.log("Usage: voicebot cloud secrets <set|diff|image-pull-secret> ...");
  },
});
