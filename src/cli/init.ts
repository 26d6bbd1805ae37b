import { define } from "gunshi";
export default define({ name: "init", description: "Create a bot project.", run: () => {} });
