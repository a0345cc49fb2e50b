// The HTTP server benchmark's Node.js peer (benches/net/README.md): the
// `http` module, one process, listening on 127.0.0.1:PORT.
//     node benches/net/node_server.js PORT
const http = require('http');

const port = Number(process.argv[2] || 8080);
const TEXT = 'Hello, World!';

http
  .createServer((req, res) => {
    // setHeader (not writeHead) lets end() add Content-Length instead of
    // answering chunked.
    if (req.url === '/') {
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end(TEXT);
    } else if (req.url === '/json') {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ message: 'Hello, World!', id: 1 }));
    } else {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('Not Found');
    }
  })
  .listen(port, '127.0.0.1');
