/** The web client's part of the template view: which client, on which dev server. */
import type { ScaffoldConfig } from "./config.ts";

export function clientView(config: ScaffoldConfig) {
  return {
    client: config.client_framework !== null && config.client_framework !== "none",
    client_vanilla: config.client_framework === "vanilla",
    client_uilib: config.client_framework === "uilib",
    client_vite: config.client_framework === "vanilla" || config.client_server === "devserver_a",
    client_next: config.client_server === "devserver_b",
  };
}

/** The template folder of the chosen client, or null when the bot has none. */
export function clientFolder(config: ScaffoldConfig): string | null {
  if (config.client_framework === "vanilla") return "client/vanilla/";
  if (config.client_framework !== "uilib") return null;
  return config.client_server === "devserver_b" ? "client/uilib-next/" : "client/uilib-vite/";
}
