// The WebSocket echo benchmark's Bun peer (benches/net/README.md): Bun.serve
// upgrading every request to a WebSocket and echoing each message back as
// it came (text as text, binary as binary). Listens on 127.0.0.1:PORT.
//     bun benches/net/bun_ws_echo.js PORT
const port = Number(process.argv[2] || 8080);

Bun.serve({
  hostname: '127.0.0.1',
  port,
  fetch(req, server) {
    if (server.upgrade(req)) return undefined;
    return new Response('expected a WebSocket handshake', { status: 426 });
  },
  websocket: {
    message(ws, message) {
      ws.send(message);
    },
  },
});
