// The worker of benches/net/threads/roundtrip.js: sends every message back.
self.onmessage = (e) => {
  self.postMessage(e.data);
};
