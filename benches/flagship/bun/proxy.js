// Reverse proxy: every request is forwarded to UPSTREAM over pooled keep-alive connections.
const UPSTREAM = process.env.UPSTREAM || "http://127.0.0.1:9000";

Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT || 8080),
  async fetch(req) {
    const { pathname } = new URL(req.url);
    try {
      const upstream = await fetch(UPSTREAM + pathname, {
        method: req.method,
        headers: req.headers,
        body: req.body,
      });
      return new Response(upstream.body, { status: upstream.status, headers: upstream.headers });
    } catch (error) {
      return new Response(`bad gateway: ${error}`, { status: 502 });
    }
  },
});
