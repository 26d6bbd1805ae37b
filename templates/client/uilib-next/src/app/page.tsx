"use client";

// The session lives in the browser (microphone, WebRTC), so the page is a client component.
import { App } from "../App";

export default function Page() {
  return <App />;
}
