// A round-robin TCP proxy with no affinity: every new connection goes to the next backend in turn, bytes are copied
// both ways unchanged. Prints "LISTENING <port>" once bound and one line per connection ("CONN <n> -> <backend>") to
// stdout; on SIGTERM it prints "TOTAL <backend> <connections>" per backend and exits.
//
//   node round-robin-proxy.mjs PORT HOST:PORT HOST:PORT [...]
import net from "node:net";

const [listenPort, ...backends] = process.argv.slice(2);
if (!listenPort || backends.length < 2) {
  process.stderr.write("usage: round-robin-proxy.mjs PORT HOST:PORT HOST:PORT [...]\n");
  process.exit(2);
}
const counts = new Map(backends.map((backend) => [backend, 0]));
let next = 0;
let connections = 0;

const server = net.createServer((client) => {
  const backend = backends[next];
  next = (next + 1) % backends.length;
  counts.set(backend, counts.get(backend) + 1);
  process.stdout.write(`CONN ${++connections} -> ${backend}\n`);
  const [host, port] = backend.split(":");
  const upstream = net.connect(Number(port), host);
  client.pipe(upstream);
  upstream.pipe(client);
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on("error", close).on("close", close);
  upstream.on("error", close).on("close", close);
});
server.listen(Number(listenPort), "127.0.0.1", () => process.stdout.write(`LISTENING ${server.address().port}\n`));

process.on("SIGTERM", () => {
  for (const [backend, count] of counts) {
    process.stdout.write(`TOTAL ${backend} ${count}\n`);
  }
  process.exit(0);
});
