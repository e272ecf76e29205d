// A webhook receiver that verifies every delivery with the official Standard Webhooks library (npm standardwebhooks)
// and prints one line per request: "VERIFIED <webhook-id> <task status>" or "REJECTED <reason>".
// Usage: node webhook-receiver.mjs PORT LIBRARY_SECRET   (the secret in the form the library takes: whsec_<base64>)
import http from "node:http";
import { Webhook } from "standardwebhooks";

const [port, secret] = process.argv.slice(2);
const webhook = new Webhook(secret);
http.createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    try {
      const event = webhook.verify(body, request.headers);
      console.log(`VERIFIED ${request.headers["webhook-id"]} ${event.status ?? event.data?.status ?? ""}`);
      response.writeHead(200).end();
    } catch (error) {
      console.log(`REJECTED ${error.message}`);
      response.writeHead(400).end();
    }
  });
}).listen(Number(port), "127.0.0.1", () => console.log(`listening on ${port}`));
