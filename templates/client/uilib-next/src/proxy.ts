import { type NextRequest, NextResponse } from "next/server";

// next.config.ts forwards /api/* to the bot runner. With BOT_START_TOKEN set in the environment
// of `next dev` or `next start` or in client/.env, this sends the bot's token with /api/start
// alone: a WebSocket client's socket carries the one-time token /start gave, and the runner reads
// an Authorization header before it. It runs on the server, read when the server starts: the
// token never reaches the browser (only NEXT_PUBLIC_ variables do).
export function proxy(request: NextRequest) {
  const token = process.env.BOT_START_TOKEN;
  if (!token) return NextResponse.next();
  const headers = new Headers(request.headers);
  headers.set("authorization", `Bearer ${token}`);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: "/api/start" };
