// The HTTP server benchmark's Bun peer (benches/net/README.md): Bun.serve
// with its route table, listening on 127.0.0.1:PORT.
//     bun benches/net/bun_server.js PORT
const port = Number(process.argv[2] || 8080);
const TEXT = 'Hello, World!';

Bun.serve({
  hostname: '127.0.0.1',
  port,
  routes: {
    '/': () => new Response(TEXT, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } }),
    '/json': () => Response.json({ message: 'Hello, World!', id: 1 }),
  },
  fetch() {
    return new Response('Not Found', { status: 404 });
  },
});
