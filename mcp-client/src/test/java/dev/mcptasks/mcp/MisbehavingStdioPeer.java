package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A child-process MCP server that answers {@code initialize} and {@code echo} properly and misbehaves on demand:
 * {@code garbage} writes junk and never answers, {@code garbageThenAnswer} writes junk and then answers,
 * {@code oversized} answers with a line of {@code params.bytes} bytes, {@code exit} dies mid-call.
 */
public final class MisbehavingStdioPeer {
    private MisbehavingStdioPeer() {}

    public static void main(String[] args) throws Exception {
        ObjectMapper json = new ObjectMapper();
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            JsonNode message = json.readTree(line);
            if (!message.has("id") || !message.has("method")) {
                continue;
            }
            String id = message.get("id").toString();
            switch (message.get("method").asText()) {
                case "initialize" -> write(out, result(id, "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                        + "\"serverInfo\":{\"name\":\"misbehaving\",\"version\":\"1\"}}"));
                case "garbage" -> junk(out);
                case "garbageThenAnswer" -> {
                    junk(out);
                    write(out, result(id, "{\"survived\":true}"));
                }
                case "oversized" -> write(out, result(id, "{\"pad\":\""
                        + "x".repeat(message.at("/params/bytes").asInt(200_000)) + "\"}"));
                case "exit" -> {
                    out.flush();
                    Runtime.getRuntime().halt(3);
                }
                default -> write(out, result(id, "{\"echo\":" + message.path("params") + "}"));
            }
        }
    }

    /** Junk the client must survive; the closing marker notification tells the test it was all read. */
    private static void junk(PrintStream out) {
        write(out, "{\"jsonrpc\":\"2.0\",\"id\":987654,\"result\":{\"unknown\":\"id\"}}");
        write(out, "[1,2,3]");
        write(out, "{this is not json");
        write(out, "plain text on stdout");
        write(out, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"marker\":\"junk-done\"}}");
    }

    private static String result(String id, String result) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + result + "}";
    }

    private static void write(PrintStream out, String text) {
        out.print(text);
        out.print('\n');
        out.flush();
    }
}
